// class-transformer ships its metadata storage (where @Type lives) without a typed entry point; the
// request schemas need it to tell the item type of a nested array.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
