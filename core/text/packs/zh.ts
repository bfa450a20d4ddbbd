import { stopwords } from '@orama/stopwords/mandarin';
import type { GroundingWords, LanguagePack } from '../resources.js';

/** Chinese: stopwords only (words are segmented, not stemmed). Loaded on demand (loadLanguage('zh')). */
const GROUNDING: GroundingWords = {
  pageIntent: '总结 摘要 概括 概述 要点',
  pageAbout: '关于 讲 说 介绍 发生 發生',
  // Entries are written as the segmenter cuts them when alone (页面 → 页 面): a cut entry's pieces would enter the list
  // anyway, and a piece that is a function word on its own (的, 一, 这) made every question holding it match.
  pageDeictic: '页 面 网页 文章 这个 篇',
  pageFiller: '请 一下 简单 的 主要 谁 是誰',
  selfNouns: '文章 本文 报道 報導 报导 新闻 新聞 游记 遊記 网页 網頁 页 頁 作者 评论 評論 帖子 内容 內容 篇 這篇 故事 寓言 食谱 食譜 研究 公告',
  selfTopics: '观点 觀點 论点 論點 结论 結論 寓意 教训 教訓 主旨 思想 启示 啟示 主题 主題 标题 標題 大意 建议 建議 重点 重點',
  selfVerbs: '写 寫 讲 講 写的 寫的 发表 發表 发布 發布 推荐 推薦 讲的 说的 說的 批评 批評 引用 表达 表達',
  amount: '多少 几 幾 多久 多长 多長',
  money: '价格 價格 价钱 價錢 多少钱 多少錢 费用 費用 票价 票價 收费 收費',
  hours: '营业时间 營業時間 开放时间 開放時間 几点 幾點 时刻表 時刻表',
  when: '什么时候 什麼時候 何时 何時',
  howto: '怎么 怎麼 如何',
  modals: '能 可以 才能 要 我 才',
  current: '目前 现在 現在 最新',
  currentText: '现代 現代 如今',
  upcoming: '下 下次 下周 下个月 下個月',
  define: '意思 含义 含義 意味 定义 定義',
  defined: '词 詞 词语 詞語 术语 術語 缩写 縮寫',
  asked: '食谱 食譜 配料 票 門票 车票 車票 机票 機票 签证 簽證 菜单 菜單 预订 預訂 预约 預約 退款 优惠 券 優惠 券 折扣 学费 學費 奖学金 獎學金 停车 停車場 住宿 护照 護照 保险 保險',
  currency: '免费 免費',
  clock: '星期 周末 週末',
  dates: '今天 昨天 明天 去年 今年 明年',
};

export const PACK: LanguagePack = { stopwords, grounding: GROUNDING };
