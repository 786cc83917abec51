module workbook/core

go 1.25.0
