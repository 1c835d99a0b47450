import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { SANDBOX } from '../support/api-client';
import { E2E_GATEWAY } from '../support/stack-settings';
import { CARDS, Merchant, useAcquiringE2eSettings } from './support/acquiring-e2e';

/**
 * The hosted checkout and 3-D Secure pages in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core): pay, approve the challenge, see the intent succeed; fail it, see the attempt fail.
 * Skipped, saying why, where no Chromium is installed (`apt-get install chromium`, or CHROMIUM_PATH).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  process.stdout.write(`hosted pages browser suite skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)\n`);
}
const describeInBrowser = haveChromium ? describe : describe.skip;

describeInBrowser('hosted pages in a browser', () => {
  let merchant: Merchant;
  let browser: Browser;

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    merchant = await Merchant.of(SANDBOX.master);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  async function payOnCheckout(cardNumber: string) {
    const intent = await merchant.createIntent({ description: 'Browser order' });
    const tab = await browser.newPage();
    await tab.goto(`${E2E_GATEWAY}/api/hosted/checkout?client_secret=${intent.client_secret}`);
    await tab.getByLabel('Card number').fill(cardNumber);
    await tab.getByLabel('Expiry month (MM)').fill('12');
    await tab.getByLabel('Expiry year (YYYY)').fill(String(new Date().getUTCFullYear() + 2));
    await tab.getByLabel('Security code').fill('123');
    await tab.getByRole('button', { name: /^Pay / }).click();
    return { intent, tab };
  }

  it('pays on the checkout page and shows the success', async () => {
    const { intent, tab } = await payOnCheckout(CARDS.visa);
    await tab.getByRole('status').getByText('Payment successful.').waitFor();
    expect((await merchant.intent(intent.payment_intent_id)).intent_status).toBe('SUCCEEDED');
    await tab.close();
  });

  it('goes through the 3-D Secure page and approving it makes the intent succeed', async () => {
    const { intent, tab } = await payOnCheckout(CARDS.threeDs);
    await tab.waitForURL(/\/api\/hosted\/three_ds\?client_secret=/);
    await tab.getByRole('button', { name: 'Approve payment' }).click();
    await tab.getByRole('status').getByText('Payment successful.').waitFor();
    expect((await merchant.intent(intent.payment_intent_id)).intent_status).toBe('SUCCEEDED');
    await tab.close();
  });

  it('failing the 3-D Secure challenge fails the attempt', async () => {
    const { intent, tab } = await payOnCheckout(CARDS.threeDs);
    await tab.waitForURL(/\/api\/hosted\/three_ds\?client_secret=/);
    await tab.getByRole('button', { name: 'Fail authentication' }).click();
    await tab.getByRole('status').getByText(/The payment failed \(authentication_failed\)/).waitFor();
    const final = await merchant.intent(intent.payment_intent_id);
    expect(final.intent_status).toBe('REQUIRES_PAYMENT_METHOD');
    expect(final.latest_payment_attempt).toMatchObject({ attempt_status: 'FAILED', failure_code: 'authentication_failed' });
    await tab.close();
  });
});

if (!haveChromium) {
  describe('hosted pages in a browser', () => {
    it.skip(`needs Chromium at ${CHROMIUM}`, () => undefined);
  });
}
