import { databaseWorkPerOperation, walPerOperation } from './database-work';

describe('databaseWorkPerOperation', () => {
  it('gives commits and row writes per operation and the connections opened, for each database that worked', () => {
    const before = new Map([
      ['paygrid_acquiring_bench', { commits: 100, rowWrites: 1_000, sessions: 12 }],
      ['paygrid_issuing_bench', { commits: 5, rowWrites: 0, sessions: 3 }],
    ]);
    const after = new Map([
      ['paygrid_acquiring_bench', { commits: 140, rowWrites: 1_190, sessions: 15 }],
      ['paygrid_issuing_bench', { commits: 5, rowWrites: 0, sessions: 3 }],
    ]);
    expect(databaseWorkPerOperation(before, after, 10, '_bench')).toEqual({
      commits_per_op_acquiring: 4,
      row_writes_per_op_acquiring: 19,
      connections_opened_acquiring: 3,
    });
  });
});

describe('walPerOperation', () => {
  it('divides the WAL counters of a run by its operations, in kilobytes for the bytes, and counts its checkpoints', () => {
    const before = { bytes: 10_000, fullPageImages: 7, syncs: 100, checkpoints: 4 };
    const after = { bytes: 10_000 + 3 * 5_120, fullPageImages: 13, syncs: 106, checkpoints: 5 };
    expect(walPerOperation(before, after, 3)).toEqual({
      wal_kb_per_op: 5,
      wal_full_page_images_per_op: 2,
      wal_syncs_per_op: 2,
      wal_checkpoints_during_run: 1,
    });
  });

  it('reports nothing for a run without operations', () => {
    const counters = { bytes: 1, fullPageImages: 1, syncs: 1, checkpoints: 1 };
    expect(walPerOperation(counters, counters, 0)).toEqual({});
  });
});
