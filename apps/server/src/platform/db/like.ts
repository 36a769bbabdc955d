/** `text` with LIKE's wildcards (`%`, `_`) and its escape character taken literally (`\` is the escape). */
export const escapeLikeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern that matches any text containing `text` as it is typed. */
export const likeContaining = (text: string) => `%${escapeLikeText(text)}%`;
