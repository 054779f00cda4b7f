// Games the browser tests load.

// A game where White gives two men away with 3. e3-f4 (`damas review` marks it
// `??`): its fifth move, the chart's point 5.
export const REVIEWED_GAME = {
  pdn: `[Event "Review test"]
[White "Alice"]
[Black "Bob"]
[Result "*"]
[GameType "26"]

1. c3-d4 f6-g5 2. b2-c3 g7-f6 3. e3-f4 g5xc5 4. d2-e3 *
`,
  blunderPly: 5,
  // The position before the blunder, shown on the analysis board.
  analysisPath: '0.0.0.0',
};
