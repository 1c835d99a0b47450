/** The sections of `npm run bench`, for `--only`. */
export const SECTIONS = ['baselines', 'http', 'acquiring', 'issuing', 'authorizations', 'payouts', 'ledger', 'webhooks'] as const;
export type SectionName = (typeof SECTIONS)[number];

/** `--only a,b` or `--only a --only b`; null for every section. Unknown names are refused. */
export function selectedSections(argv: string[]): SectionName[] | null {
  const names: string[] = [];
  argv.forEach((argument, index) => {
    if (argument === '--only') names.push(...(argv[index + 1] ?? '').split(','));
    else if (argument.startsWith('--only=')) names.push(...argument.slice('--only='.length).split(','));
  });
  if (names.length === 0) return null;
  const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown bench section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}`);
  return names as SectionName[];
}
