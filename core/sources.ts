/** A page (or passage of one) that answers are grounded in and cite: the shape of CONTRACT §4's `sources`. */
export interface SourcePage {
  readonly url: string;
  readonly title: string;
  readonly text: string;
}

/** A citation as the SDK's Answer carries it (CONTRACT §8); the marker `[n]` in the answer is `citations[n - 1]`. */
export interface Citation {
  readonly url: string;
  readonly title: string;
  /** The cited passage as the assistant read it (SDK answers): the widget previews and highlights it. */
  readonly text?: string;
}
