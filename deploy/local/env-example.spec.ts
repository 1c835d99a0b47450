import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderEnvExample } from './env-example';
import { appSchemas } from './app-schemas';

describe('.env.example', () => {
  it('documents exactly the variables the apps read (run `npm run env:example` after changing a config)', () => {
    const committed = readFileSync(path.resolve(__dirname, '../../.env.example'), 'utf8');
    expect(committed).toBe(renderEnvExample(appSchemas()));
  });

  it('names every variable of every app', () => {
    const rendered = renderEnvExample(appSchemas());
    for (const schema of Object.values(appSchemas())) {
      for (const name of Object.keys(schema)) expect(rendered).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    }
  });
});
