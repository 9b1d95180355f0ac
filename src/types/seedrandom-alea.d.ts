// seedrandom's per-algorithm modules have no bundled types; we only use Alea (pinned: golden values depend on it).
declare module 'seedrandom/lib/alea.js' {
  interface AleaPrng {
    (): number;
    int32(): number;
    double(): number;
    quick(): number;
  }
  function alea(seed: string): AleaPrng;
  export default alea;
}
