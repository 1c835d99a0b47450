import { renderTable } from './table';

describe('renderTable', () => {
  it('pads every column to its widest cell and rules the header', () => {
    const lines = renderTable(
      [
        { header: 'ID', value: (row: { id: string; name: string }) => row.id },
        { header: 'NAME', value: (row) => row.name },
      ],
      [
        { id: 'key_1', name: 'office' },
        { id: 'key_22', name: '' },
      ],
    );
    expect(lines).toEqual(['ID      NAME', '------  ------', 'key_1   office', 'key_22']);
  });

  it('prints just the header for no rows', () => {
    expect(renderTable([{ header: 'A', value: () => 'x' }], [])).toEqual(['A', '-']);
  });
});
