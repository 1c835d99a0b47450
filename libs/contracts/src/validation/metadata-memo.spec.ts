import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  getMetadataStorage,
  IsInt,
  IsString,
  Max,
  MetadataStorage,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { memoizeValidationMetadata } from './metadata-memo';
import { describeErrors, validatePayload } from './validate-payload';

class Address {
  @IsString()
  city!: string;
}

class Base {
  @IsString()
  id!: string;
}

class Order extends Base {
  @IsInt()
  @Max(10)
  quantity!: number;

  @ValidateNested()
  @Type(() => Address)
  address!: Address;
}

/** A storage of its own holding the rules of the classes above, so a test's registrations stay in it. */
function storageWithRules(): MetadataStorage {
  const storage = new MetadataStorage();
  const processWide = getMetadataStorage();
  for (const dto of [Address, Base, Order]) {
    for (const rule of MetadataStorage.prototype.getTargetValidationMetadatas.call(
      processWide,
      dto,
      '',
      false,
      false,
      undefined,
    )) {
      if (rule.target === dto) storage.addValidationMetadata(rule);
    }
  }
  return storage;
}

describe('memoizeValidationMetadata', () => {
  it("answers a class's rules once per class and lookup options, the same rules as class-validator", () => {
    const storage = storageWithRules();
    const unmemoized = storage.getTargetValidationMetadatas(Order, '', false, false, undefined);
    const walked = jest.spyOn(MetadataStorage.prototype, 'getTargetValidationMetadatas');
    memoizeValidationMetadata(storage);
    try {
      const first = storage.getTargetValidationMetadatas(Order, '', false, false, undefined);
      const second = storage.getTargetValidationMetadatas(Order, '', false, false, undefined);
      const grouped = storage.getTargetValidationMetadatas(Order, '', false, false, ['admin']);
      expect(first).toEqual(unmemoized);
      // Inherited rules (Base's id) are part of the answer, as without the memo.
      expect(first.map((rule) => rule.propertyName).sort()).toEqual([
        'address',
        'id',
        'quantity',
        'quantity',
      ]);
      expect(second).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      expect(grouped).not.toBe(first);
      // Two distinct lookups (no groups, group "admin"): the storage walked its classes twice, not three times.
      expect(walked).toHaveBeenCalledTimes(2);
    } finally {
      walked.mockRestore();
    }
  });

  it('forgets its answers when a rule is registered, so a class declared later is validated by its rules', () => {
    const storage = storageWithRules();
    memoizeValidationMetadata(storage);
    const before = storage.getTargetValidationMetadatas(Address, '', false, false, undefined);
    expect(before.map((rule) => rule.propertyName)).toEqual(['city']);

    const [cityRule] = before;
    const zipRule = Object.assign(
      Object.create(Object.getPrototypeOf(cityRule)) as ValidationMetadata,
      cityRule,
      {
        propertyName: 'zip',
      },
    );
    storage.addValidationMetadata(zipRule);

    const after = storage.getTargetValidationMetadatas(Address, '', false, false, undefined);
    expect(after.map((rule) => rule.propertyName)).toEqual(['city', 'zip']);
  });

  it('is installed once: a second call keeps the first memo', () => {
    const storage = storageWithRules();
    memoizeValidationMetadata(storage);
    const installed = storage.getTargetValidationMetadatas;
    memoizeValidationMetadata(storage);
    expect(storage.getTargetValidationMetadatas).toBe(installed);
  });

  it('leaves validation results as they were on the process-wide storage', () => {
    const payload = { id: 'o_1', quantity: 11, address: { city: 7 }, extra: true };
    const before = validatePayload(Order, payload);
    memoizeValidationMetadata();
    const after = validatePayload(Order, payload);
    const again = validatePayload(Order, payload);
    expect(before).toEqual({
      ok: false,
      problems: [
        'extra: is not an accepted field',
        'quantity: must not be greater than 10',
        'address.city: must be a string',
      ],
    });
    expect(after).toEqual(before);
    expect(again).toEqual(before);
    expect(
      describeErrors(
        validateSync(
          Object.assign(new Order(), {
            id: 'o_2',
            quantity: 1,
            address: Object.assign(new Address(), { city: 'Oslo' }),
          }),
        ),
      ),
    ).toEqual([]);
  });
});
