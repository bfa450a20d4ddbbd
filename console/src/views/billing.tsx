import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, call } from '../api/client.js';
import { ErrorAlert, Notice, PageTitle } from '../components/ui.js';
import { may, useSession } from '../session.js';

const PLANS = [
  { id: 'free', name: 'Free', text: 'To try Kit on a site: the assistant on the visitor’s device or through the API, with the free plan’s limits.' },
  { id: 'pro', name: 'Pro', text: 'For a production site: ten times the requests and a larger monthly token quota.' },
  { id: 'business', name: 'Business', text: 'For busy sites: the highest limits and quota.' },
] as const;

/** The plan, Stripe Checkout to change it, the Stripe customer portal for invoices and cancelling. */
export function Billing(_: { path?: string }) {
  const { session, refresh } = useSession();
  const { query } = useLocation();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(query.checkout === 'success');
  const manage = may.manageBilling(session.role);
  const tier = session.organization.tier;

  useEffect(() => {
    // Back from Checkout: the plan changes when Stripe's webhook arrives, usually within seconds.
    if (query.checkout !== 'success') return;
    let tries = 0;
    const timer = setInterval(async () => {
      tries += 1;
      await refresh().catch(() => undefined);
      if (tries >= 10) {
        clearInterval(timer);
        setWaiting(false);
      }
    }, 1500);
    return () => clearInterval(timer);
  }, [query.checkout, refresh]);
  useEffect(() => {
    if (waiting && tier !== 'free') setWaiting(false);
  }, [tier, waiting]);

  const go = async (what: string, request: () => Promise<{ url: string }>) => {
    setBusy(what);
    setError(null);
    try {
      const { url } = await request();
      location.assign(url);
    } catch (err) {
      setError(err);
      setBusy(null);
    }
  };
  const back = `${location.origin}/console/billing`;
  return (
    <>
      <PageTitle title="Plan & billing" lede={`Current plan: ${tier}.`} />
      {query.checkout === 'success' ? (
        <Notice>{waiting ? 'Payment received. Waiting for Stripe to confirm the new plan…' : `Thank you. Your plan is now ${tier}.`}</Notice>
      ) : null}
      {query.checkout === 'cancelled' ? <Notice kind="info">Checkout was cancelled; nothing changed.</Notice> : null}
      <ErrorAlert error={error} />
      {!manage ? <p class="muted">Owners and admins change the plan and see invoices.</p> : null}
      <div class="grid">
        {PLANS.map((plan) => (
          <section class="card" key={plan.id} aria-labelledby={`plan-${plan.id}`}>
            <h2 id={`plan-${plan.id}`}>
              {plan.name} {plan.id === tier ? <span class="badge ok">current</span> : null}
            </h2>
            <p>{plan.text}</p>
            {manage && plan.id !== 'free' && plan.id !== tier ? (
              <button
                type="button"
                class="primary"
                disabled={busy !== null}
                onClick={() =>
                  go(plan.id, () =>
                    call(api.POST('/billing/checkout', { body: { plan: plan.id, success_url: `${back}?checkout=success`, cancel_url: `${back}?checkout=cancelled` } })),
                  )
                }
              >
                {busy === plan.id ? 'Opening Stripe…' : tier === 'free' ? `Upgrade to ${plan.name}` : `Switch to ${plan.name}`}
              </button>
            ) : null}
          </section>
        ))}
      </div>
      {manage ? (
        <section class="card" aria-labelledby="portal-h">
          <h2 id="portal-h">Invoices, payment method, cancelling</h2>
          <p>Stripe’s customer portal shows invoices and lets you change the card or cancel; changes reach Kit within seconds.</p>
          <button type="button" disabled={busy !== null} onClick={() => go('portal', () => call(api.POST('/billing/portal', { body: { return_url: back } })))}>
            {busy === 'portal' ? 'Opening Stripe…' : 'Open the billing portal'}
          </button>
        </section>
      ) : null}
    </>
  );
}
