import { stopwords } from '@orama/stopwords/japanese';
import type { GroundingWords, LanguagePack } from '../resources.js';

/** Japanese: stopwords only (words are segmented, not stemmed). Loaded on demand (loadLanguage('ja')). */
const GROUNDING: GroundingWords = {
  pageIntent: '要約 まとめ 概要 あらす',
  pageAbout: 'について 説明 何 起',
  pageDeictic: 'ページ 記事 この',
  pageFiller: 'くだ さい 簡単',
  selfNouns: '記事 ページ ニュース お話 作者 著者 筆者 ブログ 内容 文章 レビュー 物語 童話 昔話 レシピ 研究 お知らせ',
  selfTopics: '教訓 結論 主張 要点 論点 意見 メッセージ テーマ タイトル 主題 要旨 アドバイス 提案 ポイント',
  selfVerbs: '書 書き 公開 発表 掲載',
  amount: 'いくつ いくら 何人 何時間 何個 何回',
  money: '値段 価格 料金 費用 いくら',
  hours: '営業時間 開館時間 何時 時刻表',
  when: 'いつ',
  howto: 'どうやって どこで',
  current: '現在 最新',
  currentText: '現代',
  upcoming: '次回',
  define: '意味 定義',
  defined: '言葉 用語 略語',
  asked: 'レシピ 材料 チケット 入場券 ビザ 査証 メニュー 予約 送料 返金 保証 割引 クーポン 学費 奨学 駐車 宿泊 パスポート 保険',
  currency: '無料',
  clock: '曜日 週末',
};

export const PACK: LanguagePack = { stopwords, grounding: GROUNDING };
