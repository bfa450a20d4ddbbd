import { PageTitle } from '../components/ui.js';

export function NotFound(_: { default?: boolean }) {
  return (
    <>
      <PageTitle title="Page not found" />
      <p>
        There is no console page at this address. <a href="/console/">Go to the overview</a>.
      </p>
    </>
  );
}
