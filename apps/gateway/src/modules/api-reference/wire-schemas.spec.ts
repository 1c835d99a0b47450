import { generateWireSchemas } from './wire-schemas.generator';
import { COMMAND_SHAPES, EVENT_SHAPES, WIRE_SCHEMAS } from './wire-schemas.generated';

/**
 * The committed schemas are what the contracts' types generate today: change a view, a payload or an
 * event and this fails until `npm run api:schemas` regenerates wire-schemas.generated.ts.
 */
describe('wire schemas', () => {
  it('match the TypeScript types they are generated from (npm run api:schemas)', () => {
    const fresh = generateWireSchemas();
    const stale = (committed: Record<string, unknown>, generated: Record<string, unknown>) =>
      [...new Set([...Object.keys(committed), ...Object.keys(generated)])].filter(
        (name) => JSON.stringify(committed[name]) !== JSON.stringify(generated[name]),
      );
    expect({
      schemas: stale(WIRE_SCHEMAS, fresh.schemas),
      commands: stale(COMMAND_SHAPES, fresh.commands),
      events: stale(EVENT_SHAPES, fresh.events),
    }).toEqual({ schemas: [], commands: [], events: [] });
  });
});
