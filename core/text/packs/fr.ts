import { stemmer } from '@orama/stemmers/french';
import { stopwords } from '@orama/stopwords/french';
import { STEMS } from '../common-words/fr.js';
import type { GroundingWords, LanguagePack } from '../resources.js';

/** French: Snowball stemmer, stopwords and 5,000 common words. Loaded on demand (loadLanguage('fr')). */
const GROUNDING: GroundingWords = {
  pageIntent: 'resume resumer resumez resumes synthese synthetiser agit',
  pageAbout: 'parle parlent parler traite explique decris dit passe raconte racontent',
  pageDeictic: 'cette ce ceci page article site texte document contenu',
  pageFiller: 'moi svp stp donne donnez peux pouvez principaux principales idees sujet principal principale',
  selfNouns: 'article page texte reportage chronique tribune editorial billet entretien interview analyse critique dossier enquete auteur auteure site blog video papier recit guide tutoriel liste histoire conte fable recette annonce etude lettre discours chapitre journaliste journal magazine experience recherche sondage documentation',
  selfTopics: 'these argument arguments point conclusion conclusions message lecon lecons morale avis opinion verdict position idee idees sujet theme titre resultats conclusions conseil conseils recommandation recommandations',
  selfVerbs: 'ecrit redige recommande annonce publie publiee teste testee testes',
  determiners: 'le la les l ce cet cette ces du de son sa',
  amount: 'combien',
  money: 'prix cout coute coutent couter tarif tarifs payer paye cher chere gratuit',
  hours: 'horaires horaire ouverture fermeture',
  opening: 'ouvert ouverte ouvre ouvrent ferme fermee ferment',
  clockAsk: 'heure heures',
  when: 'quand',
  contact: 'contacter contact',
  contactMeans: 'courriel mail email telephone',
  contactDetail: 'adresse numero coordonnees',
  postal: 'adresse',
  yours: 'votre vos ton ta tes',
  howto: 'comment',
  modals: 'je j on nous peux peut pouvons faut dois doit puis se',
  current: 'actuel actuelle actuels actuelles actuellement maintenant',
  currentText: 'moderne modernes',
  upcoming: 'prochain prochaine prochains prochaines',
  define: 'signifie signifient signification sens definition veut dire',
  defined: 'mot mots terme termes expression sigle abreviation',
  asked: 'recette recettes ingredients billet billets visa visas menu reservation reservations livraison remboursement garantie reduction abonnement adhesion bourse stationnement hebergement passeport assurance itineraire',
  currency: 'euros euro centimes francs gratuit',
  clock: 'lundi mardi mercredi jeudi vendredi samedi dimanche',
  dates: 'janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre hier demain siecle',
  numbers: 'deux trois quatre cinq six sept huit neuf dix douze cent cents mille million millions milliard milliards',
};

export const PACK: LanguagePack = { stem: stemmer, stopwords, commonStems: STEMS, grounding: GROUNDING };
