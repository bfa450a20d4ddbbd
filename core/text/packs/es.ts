import { stemmer } from '@orama/stemmers/spanish';
import { stopwords } from '@orama/stopwords/spanish';
import { STEMS } from '../common-words/es.js';
import type { GroundingWords, LanguagePack } from '../resources.js';

/** Spanish: Snowball stemmer, stopwords and 5,000 common words. Loaded on demand (loadLanguage('es')). */
const GROUNDING: GroundingWords = {
  pageIntent: 'resumen resumir sintesis trata',
  pageAbout: 'trata explica describe dice pasa paso ocurre ocurrio opina piensa propone cuenta sostiene critica',
  pageDeictic: 'esta este esto pagina articulo sitio texto documento contenido',
  pageFiller: 'dame por favor puedes principales ideas tema principal',
  selfNouns: 'articulo pagina texto noticia nota reportaje cronica columna editorial entrevista analisis resena critica autor autora sitio blog video portada guia tutorial lista historia cuento fabula receta anuncio estudio carta discurso capitulo periodista periodico diario revista experimento investigacion encuesta documentacion',
  selfTopics: 'tesis argumento argumentos punto conclusion conclusiones mensaje leccion lecciones moraleja opinion veredicto postura idea ideas tema asunto titulo resultados hallazgos consejo consejos recomendacion recomendaciones puntos tono',
  selfVerbs: 'escribio escrito recomienda anuncia publico publicado publicada firma firmo firmada analiza analizan',
  determiners: 'el la los las este esta ese esa del su',
  amount: 'cuanto cuanta cuantos cuantas',
  money: 'precio precios cuesta cuestan costo coste tarifa pagar barato barata caro cara',
  hours: 'horario horarios apertura',
  opening: 'abre abren abierto abierta cierra cierran',
  clockAsk: 'hora horas',
  when: 'cuando',
  contact: 'contactar contacto',
  contactMeans: 'correo email telefono',
  contactDetail: 'direccion numero datos',
  postal: 'direccion',
  yours: 'su sus tu tus',
  howto: 'como',
  modals: 'puedo puede podemos debo debe hay que se',
  current: 'actual actuales actualmente ahora hoy',
  currentText: 'moderno moderna modernos modernas',
  upcoming: 'próximo próxima próximos próximas',
  define: 'significa significan significado definicion quiere decir',
  defined: 'palabra palabras termino terminos expresion sigla abreviatura',
  asked: 'receta recetas ingredientes boleto boletos billete billetes visa visado menu reserva reservas envio reembolso garantia descuento cupon suscripcion membresia beca becas estacionamiento alojamiento pasaporte itinerario',
  currency: 'euros euro pesos dolares centavos gratis gratuito',
  clock: 'lunes martes miercoles jueves viernes sabado domingo',
  dates: 'enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre ayer manana siglo',
  numbers: 'dos tres cuatro cinco seis siete ocho nueve diez doce cien mil millon millones',
};

export const PACK: LanguagePack = { stem: stemmer, stopwords, commonStems: STEMS, grounding: GROUNDING };
