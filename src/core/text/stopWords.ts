/**
 * Stop-word lists for prose: function words that carry little of a text's identity.
 * Removing them (optional) makes shingles of prose depend on its content words.
 */
export const ENGLISH_STOP_WORDS: readonly string[] = (
  'a about above after again against all am an and any are as at be because been before being ' +
  'below between both but by can could did do does doing down during each few for from further ' +
  'had has have having he her here hers herself him himself his how i if in into is it its itself ' +
  'just me more most my myself no nor not now of off on once only or other our ours ourselves out ' +
  'over own same she should so some such than that the their theirs them themselves then there ' +
  'these they this those through to too under until up very was we were what when where which ' +
  'while who whom why will with would you your yours yourself yourselves also may might must shall ' +
  'us its let'
).split(' ');

export const CHINESE_STOP_WORDS: readonly string[] = (
  '的 了 是 在 和 与 及 或 也 就 都 而 着 之 于 以 为 被 把 对 从 向 将 让 给 这 那 这个 那个 这些 那些 ' +
  '一个 一些 一种 我 你 他 她 它 我们 你们 他们 她们 它们 自己 其 其中 什么 怎么 如何 哪 哪些 吗 呢 吧 啊 ' +
  '呀 嘛 么 得 地 所 所以 因为 因此 但 但是 而且 并且 如果 虽然 然后 还 还是 又 再 只 只是 很 更 最 ' +
  '已经 可以 能 会 要 没有 不 没 有 个 中 上 下 里 等 等等 即 则 该 此 每 各 由 由于 通过 进行 以及 ' +
  '并 即使 关于 对于 并非 就是 那么 这样 那样 这里 那里'
).split(' ');
