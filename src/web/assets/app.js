// The page: replaced by the browser board.
