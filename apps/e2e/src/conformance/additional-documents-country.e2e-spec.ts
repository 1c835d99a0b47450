import { api, SANDBOX, tokenFor } from '../support/api-client';

/**
 * Found while checking the accounts routes against wire-compat §10.1: `additionalDocs.get` passes `country`
 * as the caller gives it. Every other country field of the accounts API takes either case, so this one does
 * too, and answers the same documents.
 */
describe('additional documents by country', () => {
  it('answers the same documents for sg and SG', async () => {
    const token = await tokenFor(SANDBOX.master);
    const [lower, upper] = await Promise.all(
      ['sg', 'SG'].map((country) =>
        api('GET', `/v1/accounts/get_additional?country=${country}&business_code=ACQUIRING`, { token }),
      ),
    );
    expect(lower.status).toBe(200);
    expect(lower.body).toEqual(upper.body);
    expect(lower.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ profile_key: 'ACRA_BIZFILE', profile_option: 1 })]),
    );
  });
});
