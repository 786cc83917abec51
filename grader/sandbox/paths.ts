// Where the grader's own pristine workbook lives: the checkout this file is in.
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
