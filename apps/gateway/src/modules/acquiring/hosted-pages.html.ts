import { HostedSessionView } from '@paygrid/contracts';

/**
 * The hosted pages as plain HTML (no framework, no external assets): the checkout page and the 3-D
 * Secure challenge page. Every dynamic value is escaped; the one inline script and style carry the
 * response's CSP nonce. Forms have labels, errors and outcomes are announced through a live region,
 * and everything works with the keyboard alone. The script posts JSON to the gateway's hosted routes,
 * which the intent's client_secret authenticates.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
  main { max-width: 28rem; margin: 2rem auto; background: #fff; padding: 1.5rem 2rem; border-radius: 8px;
         box-shadow: 0 1px 3px rgba(0,0,0,.15); }
  h1 { font-size: 1.25rem; margin-top: 0; }
  .amount { font-size: 1.75rem; font-weight: 600; margin: .25rem 0 1rem; }
  label { display: block; margin-top: .75rem; font-weight: 500; }
  input[type=text], input[type=tel] { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit;
         border: 1px solid #8a93a6; border-radius: 4px; }
  .row { display: flex; gap: .75rem; } .row > div { flex: 1; }
  fieldset { border: 1px solid #c9ced8; border-radius: 4px; margin-top: 1rem; }
  button { margin-top: 1.25rem; padding: .6rem 1.2rem; font: inherit; font-weight: 600; border: 0; border-radius: 4px;
           background: #1f5fd6; color: #fff; cursor: pointer; }
  button.secondary { background: #5b6477; }
  button:focus-visible, input:focus-visible { outline: 3px solid #f0b400; outline-offset: 2px; }
  #status { margin-top: 1rem; min-height: 1.5rem; font-weight: 600; }
  .muted { color: #4f586a; font-size: .9rem; }`;

function layout(title: string, nonce: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
${script ? `<script nonce="${nonce}">${script}</script>` : ''}
</body>
</html>`;
}

/** The script's data, safe inside a <script> element. */
function scriptData(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

const SHARED_SCRIPT = `
  const status = document.getElementById('status');
  function say(text) { status.textContent = text; }
  async function post(path, body) {
    const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.message || 'The request failed');
    return data;
  }
  function outcome(session) {
    if (session.next_action && session.next_action.redirect_to_url) {
      say('Your bank asks you to confirm this payment. Redirecting…');
      window.location.assign(session.next_action.redirect_to_url.url);
      return;
    }
    const done = { SUCCEEDED: 'Payment successful.', REQUIRES_CAPTURE: 'Payment authorised.', PENDING: 'Payment is processing.' };
    if (done[session.intent_status]) {
      say(done[session.intent_status]);
      document.body.dataset.outcome = session.intent_status;
      if (session.return_url) {
        const link = document.createElement('a'); link.href = session.return_url; link.textContent = 'Return to the shop';
        status.appendChild(document.createElement('br')); status.appendChild(link);
      }
      return;
    }
    document.body.dataset.outcome = session.intent_status;
    say(session.failure_code ? 'The payment failed (' + session.failure_code + '). Please try another card.' : 'Status: ' + session.intent_status);
  }`;

export function checkoutPage(session: HostedSessionView, clientSecret: string, nonce: string): string {
  const payable = session.intent_status === 'REQUIRES_PAYMENT_METHOD';
  const saved = session.saved_cards
    .map(
      (card, index) => `
      <div><input type="radio" name="saved_card_id" id="saved-${index}" value="${escapeHtml(card.saved_card_id)}">
      <label for="saved-${index}" style="display:inline">${escapeHtml(card.brand)} ${escapeHtml(card.card_number)}
        (expires ${escapeHtml(card.expiry_month)}/${escapeHtml(card.expiry_year)})</label></div>`,
    )
    .join('');
  const form = `
  <form id="pay" novalidate>
    ${
      saved
        ? `<fieldset><legend>Your saved cards</legend>${saved}
      <div><input type="radio" name="saved_card_id" id="saved-new" value="" checked>
      <label for="saved-new" style="display:inline">Use a new card</label></div></fieldset>`
        : ''
    }
    <div id="new-card">
      <label for="card_name">Name on card</label>
      <input type="text" id="card_name" name="card_name" autocomplete="cc-name">
      <label for="card_number">Card number</label>
      <input type="text" id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required>
      <div class="row">
        <div><label for="expiry_month">Expiry month (MM)</label>
          <input type="text" id="expiry_month" name="expiry_month" inputmode="numeric" maxlength="2" autocomplete="cc-exp-month" required></div>
        <div><label for="expiry_year">Expiry year (YYYY)</label>
          <input type="text" id="expiry_year" name="expiry_year" inputmode="numeric" maxlength="4" autocomplete="cc-exp-year" required></div>
        <div><label for="cvc">Security code</label>
          <input type="text" id="cvc" name="cvc" inputmode="numeric" maxlength="4" autocomplete="cc-csc" required></div>
      </div>
    </div>
    <button type="submit" id="pay-button">Pay ${escapeHtml(session.amount)} ${escapeHtml(session.currency)}</button>
  </form>`;
  const body = `
  <h1>${escapeHtml(session.description)}</h1>
  <p class="amount">${escapeHtml(session.amount)} ${escapeHtml(session.currency)}</p>
  ${payable ? form : `<p>This payment cannot take a card now (status ${escapeHtml(session.intent_status)}).</p>`}
  <noscript><p>This page needs JavaScript to send your card securely.</p></noscript>
  <p id="status" role="status" aria-live="polite"></p>
  <p class="muted">Payment reference ${escapeHtml(session.payment_intent_id)}</p>`;
  const script = `
  const clientSecret = ${scriptData(clientSecret)};
  ${SHARED_SCRIPT}
  const form = document.getElementById('pay');
  if (form) form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const chosen = form.querySelector('input[name=saved_card_id]:checked');
    const value = (name) => form.elements[name].value.trim();
    const body = { client_secret: clientSecret };
    if (chosen && chosen.value) body.saved_card_id = chosen.value;
    else body.card = { card_name: value('card_name') || undefined, card_number: value('card_number'), expiry_month: value('expiry_month'), expiry_year: value('expiry_year'), cvc: value('cvc') };
    const button = document.getElementById('pay-button');
    button.disabled = true; say('Processing your payment…');
    try { outcome(await post('/api/hosted/checkout/pay', body)); }
    catch (error) { say(error.message); }
    finally { button.disabled = false; }
  });`;
  return layout(`Pay ${session.amount} ${session.currency}`, nonce, body, script);
}

export function threeDsPage(session: HostedSessionView, clientSecret: string, nonce: string): string {
  const waiting = session.latest_attempt_status === 'AUTHENTICATION_REDIRECTED';
  const body = `
  <h1>Confirm your payment</h1>
  <p>Sandbox 3-D Secure: your bank asks you to confirm this payment.</p>
  <p class="amount">${escapeHtml(session.amount)} ${escapeHtml(session.currency)}</p>
  <p>${escapeHtml(session.description)}</p>
  ${
    waiting
      ? `<form id="challenge">
    <button type="submit" name="outcome" value="approve" id="approve">Approve payment</button>
    <button type="submit" name="outcome" value="fail" id="fail" class="secondary">Fail authentication</button>
  </form>`
      : `<p>There is no authentication waiting for this payment (status ${escapeHtml(session.intent_status)}).</p>`
  }
  <noscript><p>This page needs JavaScript.</p></noscript>
  <p id="status" role="status" aria-live="polite"></p>`;
  const script = `
  const clientSecret = ${scriptData(clientSecret)};
  ${SHARED_SCRIPT}
  const form = document.getElementById('challenge');
  if (form) form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const choice = event.submitter ? event.submitter.value : 'approve';
    for (const button of form.querySelectorAll('button')) button.disabled = true;
    say('Checking with your bank…');
    try { outcome(await post('/api/hosted/three_ds', { client_secret: clientSecret, outcome: choice })); form.remove(); }
    catch (error) { say(error.message); for (const button of form.querySelectorAll('button')) button.disabled = false; }
  });`;
  return layout('Confirm your payment', nonce, body, script);
}

export function errorPage(message: string, nonce: string): string {
  return layout('Payment page unavailable', nonce, `<h1>This payment page is not available</h1><p role="alert">${escapeHtml(message)}</p>`);
}
