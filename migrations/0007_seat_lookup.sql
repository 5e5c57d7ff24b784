-- GetSeat finds the game a seat token holds by the token's digest.
CREATE INDEX games_fox_token ON games (fox_token_hash) WHERE fox_token_hash IS NOT NULL;
CREATE INDEX games_geese_token ON games (geese_token_hash) WHERE geese_token_hash IS NOT NULL;
