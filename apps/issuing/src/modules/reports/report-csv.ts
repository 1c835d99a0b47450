/**
 * CSV as spreadsheets and scripts read it (RFC 4180): every text cell quoted with its quotes doubled, CRLF line
 * ends. A text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe,
 * so a merchant-chosen text (a transfer remark) cannot become a formula in the merchant's own spreadsheet.
 * Numbers are written as they are.
 */
export type CsvCell = string | { number: string } | null;

const FORMULA_START = /^[=+\-@\t\r]/;

function cellText(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell !== 'string') return cell.number;
  const safe = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function toCsv(header: readonly string[], rows: readonly CsvCell[][]): string {
  return [header.map(cellText), ...rows.map((row) => row.map(cellText))].map((cells) => `${cells.join(',')}\r\n`).join('');
}

export const csvNumber = (text: string): CsvCell => ({ number: text });
