import { stemmer } from '@orama/stemmers/portuguese';
import { stopwords } from '@orama/stopwords/portuguese';
import { STEMS } from '../common-words/pt.js';
import type { GroundingWords, LanguagePack } from '../resources.js';

/** Portuguese: Snowball stemmer, stopwords and 5,000 common words. Loaded on demand (loadLanguage('pt')). */
const GROUNDING: GroundingWords = {
  pageIntent: 'resuma resumo resumir sintese',
  pageAbout: 'fala diz trata explica acontece aconteceu opina pensa conta',
  pageDeictic: 'essa esse isso esta este pagina artigo site texto conteudo',
  pageFiller: 'pode podes favor principais principal',
  selfNouns: 'artigo pagina texto noticia materia reportagem cronica coluna editorial entrevista analise resenha critica autor autora site blog video guia tutorial lista historia conto fabula receita anuncio estudo carta discurso capitulo jornalista jornal revista experimento pesquisa documentacao',
  selfTopics: 'tese argumento argumentos ponto conclusao conclusoes mensagem licao licoes moral opiniao veredito posicao ideia ideias tema assunto titulo resultados conselho conselhos dica dicas recomendacao recomendacoes pontos',
  selfVerbs: 'escreveu escrito recomenda anuncia publicou publicado publicada assina assinou citado citada citados',
  determiners: 'o a os as este esta esse essa do da seu sua',
  amount: 'quanto quanta quantos quantas',
  money: 'preco precos custa custam custo tarifa pagar barato caro',
  hours: 'horario horarios funcionamento',
  opening: 'abre abrem aberto aberta fecha fecham',
  clockAsk: 'hora horas',
  when: 'quando',
  contact: 'contatar contactar contato contacto',
  contactMeans: 'email e-mail telefone',
  contactDetail: 'endereco numero dados',
  postal: 'endereco morada',
  yours: 'seu sua seus suas vosso vossa teu tua',
  howto: 'como',
  modals: 'posso pode podemos devo deve se',
  current: 'atual atuais atualmente agora hoje',
  currentText: 'moderno moderna modernos modernas',
  upcoming: 'próximo próxima próximos próximas',
  define: 'significa significam significado definicao quer dizer',
  defined: 'palavra palavras termo termos expressao sigla abreviacao',
  asked: 'ingredientes ingresso ingressos bilhete bilhetes cardapio reserva reservas entrega reembolso garantia desconto cupom assinatura estacionamento hospedagem passaporte roteiro',
  currency: 'reais real euros dolares centavos gratis gratuito',
  clock: 'segunda terca quarta quinta sexta sabado domingo',
  dates: 'janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro ontem amanha seculo',
  numbers: 'dois duas tres quatro cinco seis sete oito nove dez doze cem mil milhao milhoes',
};

export const PACK: LanguagePack = { stem: stemmer, stopwords, commonStems: STEMS, grounding: GROUNDING };
