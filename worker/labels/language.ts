/**
 * A prompt's language from its own text, cheaply: the script decides for the languages that have their own,
 * and for Latin script the language whose common short words the text uses most. Good enough to slice a
 * leaderboard by; the classifier or an imported log's `language` field can do better.
 */

/** Scripts that name one language (or decide between two by a letter only one of them uses). */
const SCRIPTS: { code: string; pattern: RegExp }[] = [
  { code: "ja", pattern: /[\u3040-\u30ff]/g },
  { code: "ko", pattern: /[\uac00-\ud7af\u1100-\u11ff]/g },
  { code: "zh", pattern: /[\u4e00-\u9fff\u3400-\u4dbf]/g },
  { code: "ru", pattern: /[\u0400-\u04ff]/g },
  { code: "ar", pattern: /[\u0600-\u06ff]/g },
  { code: "he", pattern: /[\u0590-\u05ff]/g },
  { code: "el", pattern: /[\u0370-\u03ff]/g },
  { code: "th", pattern: /[\u0e00-\u0e7f]/g },
  { code: "hi", pattern: /[\u0900-\u097f]/g },
];

/** Short words frequent in one Latin-script language and rare in the others. */
const STOPWORDS: Record<string, string[]> = {
  en: ["the", "and", "is", "of", "to", "what", "how", "you", "that", "with", "for", "this", "are", "can", "write"],
  es: ["el", "los", "las", "que", "y", "es", "por", "para", "con", "una", "del", "cómo", "qué", "escribe"],
  fr: ["le", "les", "des", "est", "et", "une", "pour", "dans", "que", "qui", "avec", "comment", "pas", "écris"],
  de: ["der", "die", "das", "und", "ist", "nicht", "ein", "eine", "mit", "wie", "was", "ich", "für", "schreibe"],
  pt: ["os", "as", "não", "uma", "para", "com", "que", "como", "é", "do", "da", "você", "escreva"],
  it: ["il", "gli", "che", "è", "per", "una", "non", "con", "come", "della", "sono", "scrivi"],
  nl: ["de", "het", "een", "en", "is", "van", "niet", "dat", "wat", "hoe", "ik", "schrijf"],
};

const WORDS = new Map<string, string[]>();
for (const [code, words] of Object.entries(STOPWORDS))
  for (const w of words) WORDS.set(w, [...(WORDS.get(w) ?? []), code]);

/** The ISO 639-1 code of the text's language, or null when there is too little text to tell. */
export function detectLanguage(text: string): string | null {
  // The start of a prompt says its language as well as the whole, at a fraction of the cost on a large import.
  const sample = text.slice(0, 1000);
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return null;
  // Japanese mixes kana with Han characters: any kana at all means Japanese rather than Chinese.
  for (const { code, pattern } of SCRIPTS) {
    const n = sample.match(pattern)?.length ?? 0;
    if (code === "ja" ? n > 0 : n / letters >= 0.3) return code === "ru" && /[їєі]/i.test(sample) ? "uk" : code;
  }
  const votes = new Map<string, number>();
  for (const word of sample.toLowerCase().match(/\p{L}+/gu) ?? [])
    for (const code of WORDS.get(word) ?? []) votes.set(code, (votes.get(code) ?? 0) + 1);
  let best: string | null = null;
  let most = 0;
  for (const [code, n] of votes)
    if (n > most) {
      best = code;
      most = n;
    }
  return best;
}

/** The names lmarena's logs use in their `language` field, by code (the rest are kept as their lowercased name). */
const NAMED: Record<string, string> = {
  english: "en",
  chinese: "zh",
  russian: "ru",
  spanish: "es",
  french: "fr",
  german: "de",
  portuguese: "pt",
  italian: "it",
  japanese: "ja",
  korean: "ko",
  arabic: "ar",
  dutch: "nl",
  polish: "pl",
  vietnamese: "vi",
  turkish: "tr",
  ukrainian: "uk",
  hebrew: "he",
  greek: "el",
  thai: "th",
  hindi: "hi",
  indonesian: "id",
  persian: "fa",
};

/** An imported log's `language` (a name such as "English", or already a code) as a label's code; null when blank or "unknown". */
export function languageCodeOf(name: string): string | null {
  const key = name.trim().toLowerCase();
  if (key === "" || key === "unknown") return null;
  if (NAMED[key]) return NAMED[key];
  return /^[a-z]{2,3}$/.test(key) ? key : key.replace(/[^\p{L}\p{N}]+/gu, "_").slice(0, 40);
}
