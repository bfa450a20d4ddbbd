import { stem } from 'porter2';
import { stopwords } from '@orama/stopwords/english';
import { STEMS } from '../common-words/en.js';
import type { GroundingWords, LanguagePack } from '../resources.js';

/** English: Porter2 (via `porter2`, twice as fast as a regex Porter), Orama's stopwords, 5,000 common words. Always loaded. */
const GROUNDING: GroundingWords = {
  selfNouns: 'article articles story piece post blog blogpost report review essay column editorial interview analysis guide tutorial walkthrough list listicle newsletter page site website text document video podcast author writer headline notes explainer feature news coverage recap writeup fable tale recipe thread forum faq changelog announcement obituary profile study paper letter speech chapter entry reporter reporters researcher researchers journalist correspondent newspaper magazine outlet publication reviewer experiment research survey documentation docs manual release rant rants commentary critique memo manifesto whitepaper transcript memoir wiki glossary handbook cheatsheet specification rfc roundup digest bulletin homepage webpage blurb vlog screencast slideshow infographic primer',
  selfTopics: 'thesis argument arguments point points conclusion conclusions message lesson lessons moral morals claim claims opinion verdict takeaway stance purpose idea ideas topic topics subject theme gist title angle findings pros cons audience advice tips recommendation recommendations suggestion suggestions insight insights premise complaint complaints focus tone rating ratings',
  selfVerbs: 'wrote written writes author authored reviewed reviewing reviews covered covering discussed discussing describes described argued arguing argues recommends recommended announced announcing explains explaining teaches teaching ranking ranks reporting reports published publish posted recommend suggests reported conclude concludes concluded announce announces tested cited citing quoted quotes quoting complains complaining',
  determiners: 'the this that these those its his her their your whose',
  money: 'cost costs costing price prices priced pricing pay paid fee fees charge charges cheap cheaper cheapest expensive afford affordable fare fares tariff',
  hours: 'hours opening timetable timetables schedule schedules times',
  opening: 'open opens close closes closing',
  clockAsk: 'time',
  when: 'when',
  contact: 'contact contacting',
  contactMeans: 'email e-mail phone telephone fax',
  contactDetail: 'address addresses number numbers details information info',
  postal: 'address addresses',
  yours: 'your',
  current: 'current currently now nowadays today latest',
  currentText: 'modern present',
  upcoming: 'next upcoming',
  define: 'mean means meaning meanings definition define stand stands',
  defined: 'word words term terms phrase expression acronym abbreviation name',
  asked: 'recipe recipes ingredients ticket tickets visa visas menu menus reservation reservations booking bookings warranty refund refunds discount coupon coupons voucher shipping delivery subscription membership tuition scholarship scholarships parking accommodation appointment appointments passport insurance rental itinerary',
  currency: 'dollars dollar euros euro cents cent pounds usd eur gbp yen yuan pesos rupees free',
  clock: 'am pm monday tuesday wednesday thursday friday saturday sunday weekday weekdays weekend weekends',
  dates: 'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec yesterday today tomorrow tonight ago last next since until century decade ad bc bce',
  numbers: 'one two three four five six seven eight nine ten eleven twelve dozen dozens hundred hundreds thousand thousands million millions billion billions half twice several',
};

export const PACK: LanguagePack = { stem, stopwords, commonStems: STEMS, grounding: GROUNDING };
