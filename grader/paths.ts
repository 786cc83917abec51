// Where the grader's own pristine workbook lives: the checkout this file is in.
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../', import.meta.url));
export const gradeConfig = fileURLToPath(new URL('./vitest.grade.config.ts', import.meta.url));
