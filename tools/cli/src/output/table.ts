/**
 * Plain text tables for terminals and logs: padded columns, a dashed rule under the header, no
 * colours or box drawing (output is often piped or pasted into tickets).
 */
export interface Column<T> {
  header: string;
  value(row: T): string;
}

const GAP = '  ';

export function renderTable<T>(columns: Column<T>[], rows: T[]): string[] {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const widths = columns.map((column, index) => Math.max(column.header.length, ...cells.map((line) => line[index].length)));
  const format = (line: string[]) => line.map((cell, index) => cell.padEnd(widths[index])).join(GAP).trimEnd();
  return [format(columns.map((column) => column.header)), format(widths.map((width) => '-'.repeat(width))), ...cells.map(format)];
}

/** Writes a table line by line to a command's output. */
export function printTable<T>(context: { out(line: string): void }, columns: Column<T>[], rows: T[]): void {
  for (const line of renderTable(columns, rows)) context.out(line);
}
