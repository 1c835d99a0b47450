/**
 * @paygrid/ids: the ids we mint. Prefixed, time-sortable ids for our own aggregates, uuids where the spec
 * demands them, and short human references.
 */
export {
  ID_PREFIXES,
  MAX_ID_LENGTH,
  MAX_PREFIX_LENGTH,
  createIdGenerator,
  idPrefix,
  idTimestamp,
  isId,
  isValidIdPrefix,
  newId,
} from './prefixed-id';
export type { IdGenerator, KnownIdPrefix, PrefixedId } from './prefixed-id';
export { createUuidV7Generator, isUuid, isUuidV4, isUuidV7, uuidV4, uuidV7, uuidV7Timestamp } from './uuid';
export type { UuidV7Generator } from './uuid';
export { isShortReferenceId, shortReferenceId } from './short-reference';
export type { ShortReferenceOptions } from './short-reference';
export type { EntropyOptions } from './monotonic';
