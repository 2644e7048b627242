-- rlock lab schema: one bank account whose balance the lock holders update.
-- `fence` stores the highest fencing token accepted so far (0 = none).
-- Re-runnable: running it again changes no data (`rlock reset` puts an account back to 100).
CREATE TABLE IF NOT EXISTS accounts (
    id      integer PRIMARY KEY,
    balance bigint  NOT NULL,
    fence   bigint  NOT NULL DEFAULT 0
);

INSERT INTO accounts (id, balance, fence) VALUES (1, 100, 0)
ON CONFLICT (id) DO NOTHING;
