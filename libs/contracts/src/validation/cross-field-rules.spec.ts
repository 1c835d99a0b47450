import { IsIn, IsOptional, IsString } from 'class-validator';
import { CrossFieldRules } from './cross-field-rules';
import { validatePayload } from './validate-payload';

class Shipment {
  @IsIn(['PICKUP', 'DELIVERY'])
  @CrossFieldRules((shipment: Shipment) => [
    ...(shipment.method === 'DELIVERY' && shipment.address === undefined
      ? ['address: is required for DELIVERY']
      : []),
    ...(shipment.method === 'PICKUP' && shipment.address !== undefined
      ? ['address: is not allowed for PICKUP']
      : []),
  ])
  method!: 'PICKUP' | 'DELIVERY';

  @IsOptional() @IsString() address?: string;
}

describe('CrossFieldRules', () => {
  it('reports each problem of a rule in its own words, not under the field it is attached to', () => {
    expect(validatePayload(Shipment, { method: 'DELIVERY' })).toEqual({
      ok: false,
      problems: ['address: is required for DELIVERY'],
    });
    expect(validatePayload(Shipment, { method: 'PICKUP', address: '1 Main St' })).toEqual({
      ok: false,
      problems: ['address: is not allowed for PICKUP'],
    });
  });

  it('lets a consistent payload through', () => {
    expect(validatePayload(Shipment, { method: 'DELIVERY', address: '1 Main St' }).ok).toBe(true);
  });

  it('reports the field rules of the field it is attached to as usual', () => {
    expect(validatePayload(Shipment, { method: 'TELEPORT' })).toEqual({
      ok: false,
      problems: ['method: must be one of the following values: PICKUP, DELIVERY'],
    });
  });
});
