module workbook

go 1.23
