/**
 * The word characters of unicodeWordTable (wordChars.ts) for one Unicode version, stored as runs
 * (scripts/word-runs.ts writes them): a thread whose engine has that version takes its table from
 * them (well under a millisecond) instead of a pass of a Unicode regular expression over every
 * code unit (~13 ms, on the path of every scan's start and every worker's). Another version's
 * engine makes its own table, so the word characters are always the engine's.
 */

/** The Unicode version (process.versions.unicode) whose word characters WORD_CHAR_RUNS holds. */
export const WORD_CHAR_RUNS_UNICODE = '17.0';

/** The runs of word characters: per run, its gap from the previous run's end and its length, base 36, comma-separated. */
export const WORD_CHAR_RUNS =
  '4q,1,7,2,1,1,3,2,1,3,1,n,1,v,1,cq,4,c,e,5,7,1,1,1,h,39,1,2,2,4,1,1,6,1,1,3,1,1,1,k,1,2b,1,3v,1,4t,1,12,2,1,6,15,8,19,1,1,1,2,1,2,1,1,8,r,4,4,t,b,5,22,4,2u,1,8,2,a,1,j,2,1,g,1n,2,2t,e,1i,4,1,2,1,2,1a,i,s,4,b,5,o,1,7,7,23,1,3l,2,a,1,j,1,8,2,2,2,m,1,7,1,1,3,4,2,9,2,2,2,4,8,1,4,2,1,5,2,c,2,6,2,1,1,1,2,3,1,6,4,2,2,m,1,7,1,2,1,2,1,2,2,1,1,5,4,2,2,3,3,1,7,4,1,1,7,g,b,3,1,9,1,3,1,m,1,7,1,2,1,5,2,a,1,3,1,3,2,1,f,4,2,a,9,7,1,3,1,8,2,2,2,m,1,7,1,2,1,5,2,9,2,2,2,3,7,3,4,2,1,5,2,a,1,7,a,2,1,6,3,3,1,4,3,2,1,1,1,2,3,2,3,3,3,c,4,5,3,3,1,4,2,1,6,1,e,d,d,d,1,3,1,n,1,g,2,9,1,3,1,4,7,2,1,3,1,2,2,4,2,a,8,7,1,4,1,8,1,3,1,n,1,a,1,5,2,9,1,3,1,4,7,2,5,3,1,4,2,a,1,3,c,d,1,3,1,1f,1,3,1,5,5,g,2,j,1,6,1,3,1,i,3,o,1,9,1,1,2,7,3,1,4,6,1,1,1,8,6,a,2,2,d,1m,5,f,1,a,13,2,1,1,1,5,1,o,1,1,1,n,2,5,1,1,1,7,1,a,2,4,w,1,n,2,6,k,1,1,1,1,1,1,4,a,1,10,4,k,1,i,1,10,9,1,1l,22,6,26,2,12,1,1,5,1,2,17,1,99,1,4,2,7,1,1,1,4,2,15,1,4,2,x,1,4,2,7,1,1,1,4,2,f,1,1l,1,4,2,1v,2,3,9,k,3,g,g,2e,2,6,3,h8,2,h,1,q,5,23,3,b,7,m,9,m,b,k,c,d,1,3,1,2,c,2c,3,1,4,2,2,a,6,a,h,3,1,b,6,2h,7,17,5,1y,a,v,1,c,4,c,a,14,2,5,b,18,4,q,6,b,11,s,4,1r,1,t,2,b,6,a,d,1,8,1a,2,c,k,25,3,a,h,9,c,38,c,1k,8,a,3,1d,2,b,5,17,2,3,g,3,1,13,5,eu,2,6,2,12,2,6,2,8,1,1,1,1,1,1,1,v,2,1h,1,7,1,1,3,3,1,7,3,4,2,6,4,d,5,3,1,7,37,2,2,6,5,b,6,d,1f,x,h,1,4,1,2,a,1,1,3,5,6,1,1,1,1,1,1,4,1,b,2,4,5,5,4,1,1,1m,k6,1o,26,m,hi,u,vg,6d,6,9,9,1,2,12,1,1,5,1,2,1k,7,1,f,o,9,7,1,7,1,7,1,7,1,7,1,7,1,7,1,7,1,w,1b,1,ep,2e,2,2,2,3,1,2i,1,4,5,17,1,2m,3,4,a,w,1c,g,w,a,u,8,1,f,w,a,13,f,8w,534,1s,h3h,1v,1a,2,7h,3,s,k,1f,1,a,1,37,11,9,2,2v,2,2a,k,1j,4,1,3,6,a,1g,c,1y,a,a,6,o,3,1,1,1d,2,10,c,t,3,1t,e,b,6,v,1,1j,9,e,2,a,6,n,3,21,o,3,2,g,2,5,a,6,2,6,2,6,9,7,1,7,1,17,1,e,6,3f,1,2,2,a,6,8mc,c,n,4,1d,4,1kw,4xs,a6,2,2y,12,7,c,5,5,c,1,d,1,5,1,1,1,2,1,2,1,30,x,a3,i,1s,2,1i,14,c,4,g,g,g,1s,5,1,3r,j,a,7,q,6,q,b,2h,3,6,2,6,2,6,2,3';

/** A table of word characters (1 = word) as {@link WORD_CHAR_RUNS} writes it. */
export function runsOfTable(table: Uint8Array): string {
  const parts: string[] = [];
  let end = 0;
  for (let c = 0; c < table.length; ) {
    if (table[c] === 0) {
      c++;
      continue;
    }
    let e = c + 1;
    while (e < table.length && table[e] !== 0) e++;
    parts.push((c - end).toString(36), (e - c).toString(36));
    end = e;
    c = e;
  }
  return parts.join(',');
}

/** The table of 65,536 code units that `runs` ({@link runsOfTable}'s form) describes. */
export function tableOfRuns(runs: string): Uint8Array {
  const t = new Uint8Array(65536);
  const parts = runs.split(',');
  let end = 0;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const start = end + parseInt(parts[i], 36);
    end = start + parseInt(parts[i + 1], 36);
    t.fill(1, start, end);
  }
  return t;
}
