import { csvNumber, toCsv } from './report-csv';

describe('report CSV', () => {
  it('quotes text, doubles quotes, writes numbers bare and ends lines with CRLF', () => {
    expect(toCsv(['name', 'amount'], [['Ada "the first", Countess', csvNumber('-10.50')], [null, csvNumber('0.00')]])).toBe(
      '"name","amount"\r\n"Ada ""the first"", Countess",-10.50\r\n,0.00\r\n',
    );
  });

  it.each(['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx'])('keeps the text %p from becoming a formula', (text) => {
    expect(toCsv(['remark'], [[text]]).split('\r\n')[1]).toBe(`"'${text.replace(/"/g, '""')}"`);
  });
});
