import { expect } from 'chai';
import { panelStrings, type PanelSettings } from '../../../sdk/widget/populate.js';
import { DEFAULT_STRINGS } from '../../../sdk/widget/strings.js';
import fr from '../../../sdk/widget/i18n/fr.js';

const settings = (over: Partial<PanelSettings> = {}): PanelSettings => ({
  name: null,
  greeting: null,
  starter_questions: [],
  theme: { accent: null, scheme: 'auto', position: 'bottom-right', launcher_label: null },
  logging: { mode: 'off', notice: null },
  ...over,
});

describe('panelStrings', () => {
  it('speaks of the page with a page context and of the site with a site context, in each language', () => {
    const page = panelStrings(null, null, false, {});
    expect(page).to.include({ title: 'Ask about this page', intro: DEFAULT_STRINGS.intro, refusalHint: 'Try a question about what this page covers.' });
    const site = panelStrings(null, null, true, {});
    expect(site).to.include({
      title: 'Ask about this site',
      launcher: 'Ask about this site',
      intro: 'Ask a question about this site. Answers come from its pages, with links to the sources.',
      refusalHint: 'Try a question about what this site covers.',
      refusalContact: 'Try a question about what this site covers, or {contact}.',
    });
    const french = panelStrings(fr, null, true, {});
    expect(french).to.include({ title: fr.titleSite, intro: fr.introSite, refusalHint: fr.refusalHintSite, refusalContact: fr.refusalContactSite });
  });

  it("applies the snippet's site strings and its explicit page strings in both contexts", () => {
    expect(panelStrings(null, null, true, { titleSite: 'Help centre', introSite: 'Ask the help centre.' })).to.include({ title: 'Help centre', launcher: 'Help centre', intro: 'Ask the help centre.' });
    expect(panelStrings(null, null, true, { intro: 'Ask us anything here.', title: 'Helper' })).to.include({ intro: 'Ask us anything here.', title: 'Helper' });
    expect(panelStrings(null, null, false, { introSite: 'Ask the help centre.' }).intro).to.equal(DEFAULT_STRINGS.intro);
  });

  it("titles the panel with the owner's name and labels the launcher with the owner's label", () => {
    const s = panelStrings(null, settings({ name: 'Trailhead help', theme: { accent: null, scheme: 'auto', position: 'bottom-right', launcher_label: 'Questions?' } }), true, {});
    expect(s).to.include({ title: 'Trailhead help', launcher: 'Questions?', intro: DEFAULT_STRINGS.introSite });
  });
});
