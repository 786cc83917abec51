module workbook

go 1.22
