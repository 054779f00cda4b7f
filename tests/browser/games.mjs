// Games the browser tests load.

// A game where White gives a man away (the review marks it `??`).
export const REVIEWED_GAME = {
  pdn: `[Event "Review test"]
[White "Alice"]
[Black "Bob"]
[Result "*"]
[GameType "26"]

1. c3-d4 f6-g5 2. b2-c3 g7-f6 *
`,
  blunderPly: 3,
  analysisPath: '0.0.0',
};
