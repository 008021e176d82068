//! The per-user history in a fleet's PostgreSQL history: the operations of the bank's own
//! ([`crate::store::history`]) under the same names; a fleet's `record` offers several
//! candidates in one statement and records the first the user has not had.

use super::{key_of, Postgres, Result};
use crate::canon::Key;
use crate::store::history::Delivery;

/// The per-user history of a fleet's history ([`Postgres::history`]).
#[derive(Clone, Copy)]
pub struct UserHistory<'a>(pub(super) &'a Postgres);

impl UserHistory<'_> {
    /// The classes `user` must not be given as a new puzzle: those the user has been given,
    /// and every daily puzzle (handed out by the daily route only).
    pub async fn taken(&self, user: &str) -> Result<Vec<Key>> {
        self.0.run(async |client| {
            let stmt = client
                .prepare_cached(
                    "SELECT canon_key FROM pseudoku_user_history WHERE user_id = $1 \
                     UNION SELECT canon_key FROM pseudoku_daily",
                )
                .await
                .map_err(self.0.failed())?;
            let rows = client.query(&stmt, &[&user]).await.map_err(self.0.failed())?;
            Ok(rows.iter().map(|r| key_of(r.get(0))).collect())
        })
        .await
    }

    /// Records as `user`'s the first of `candidates` (class, puzzle id) whose class the user
    /// has not been given, by this server or another, and which is no daily puzzle, in one
    /// statement (one round trip, one commit): its puzzle id, or `None` when the user had them
    /// all or another server gave the user that class meanwhile (the primary key decides:
    /// `ON CONFLICT DO NOTHING`). The statement carries its deadline on PostgreSQL's clock
    /// (`record_by`): run later than that (it waited in the socket of a host that stopped,
    /// while this server answered 503), it records nothing, so a delivery the player never
    /// received is not charged.
    pub async fn record(&self, user: &str, candidates: &[(Key, i64)]) -> Result<Option<i64>> {
        let keys: Vec<&[u8]> = candidates.iter().map(|(k, _)| &k.0[..]).collect();
        let ids: Vec<i64> = candidates.iter().map(|(_, id)| *id).collect();
        let by = self.0.record_by();
        self.0.run(async |client| {
            let stmt = client
                .prepare_cached(
                    "INSERT INTO pseudoku_user_history (user_id, canon_key, puzzle_id) \
                     SELECT $1, c.key, c.id \
                     FROM unnest($2::bytea[], $3::int8[]) WITH ORDINALITY AS c(key, id, n) \
                     WHERE clock_timestamp() < $4::timestamptz \
                     AND NOT EXISTS (SELECT 1 FROM pseudoku_user_history h \
                                     WHERE h.user_id = $1 AND h.canon_key = c.key) \
                     AND NOT EXISTS (SELECT 1 FROM pseudoku_daily d WHERE d.canon_key = c.key) \
                     ORDER BY c.n LIMIT 1 \
                     ON CONFLICT DO NOTHING RETURNING puzzle_id",
                )
                .await
                .map_err(self.0.failed())?;
            let row = client
                .query_opt(&stmt, &[&user, &keys, &ids, &by])
                .await
                .map_err(self.0.failed())?;
            Ok(row.map(|r| r.get(0)))
        })
        .await
    }

    /// Records that `user` asked for the daily puzzle of class `key` (puzzle `id`): asking is
    /// its delivery, which a result needs. Nothing changes when it was recorded before.
    pub async fn record_daily(&self, user: &str, key: &Key, id: i64) -> Result<()> {
        self.0
            .run(async |client| {
                let stmt = client
                    .prepare_cached(
                        "INSERT INTO pseudoku_user_history (user_id, canon_key, puzzle_id) \
                         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    )
                    .await
                    .map_err(self.0.failed())?;
                client
                    .execute(&stmt, &[&user, &&key.0[..], &id])
                    .await
                    .map_err(self.0.failed())?;
                Ok(())
            })
            .await
    }

    /// Whether `user` was given the class `key` by any server: a delivery, or the daily
    /// puzzle the user asked for. What a result and a solution need.
    pub async fn given(&self, user: &str, key: &Key) -> Result<bool> {
        self.ask(
            "SELECT EXISTS (SELECT 1 FROM pseudoku_user_history \
                            WHERE user_id = $1 AND canon_key = $2)",
            &[&user, &&key.0[..]],
        )
        .await
    }

    /// Whether `user` has been given anything by any server: a user the fleet knows.
    pub async fn known(&self, user: &str) -> Result<bool> {
        self.ask(
            "SELECT EXISTS (SELECT 1 FROM pseudoku_user_history WHERE user_id = $1)",
            &[&user],
        )
        .await
    }

    /// The one boolean the query `sql` answers for `params`.
    async fn ask(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<bool> {
        self.0
            .run(async |client| {
                let stmt = client.prepare_cached(sql).await.map_err(self.0.failed())?;
                let row = client
                    .query_one(&stmt, params)
                    .await
                    .map_err(self.0.failed())?;
                Ok(row.get(0))
            })
            .await
    }

    /// Up to `limit` deliveries of the per-user history after `after` (a user and class), in
    /// the order of user and class: a page of a history too large to hold at once.
    pub async fn page(
        &self,
        after: Option<&(String, Key)>,
        limit: usize,
    ) -> Result<Vec<Delivery>> {
        let (user, key) = match after {
            Some((user, key)) => (user.as_str(), &key.0[..]),
            None => ("", &[][..]),
        };
        self.0.run(async |client| {
            let rows = client
                .query(
                    "SELECT user_id, canon_key, puzzle_id, \
                     to_char(given_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') \
                     FROM pseudoku_user_history WHERE (user_id, canon_key) > ($1, $2) \
                     ORDER BY user_id, canon_key LIMIT $3",
                    &[&user, &key, &(limit as i64)],
                )
                .await
                .map_err(self.0.failed())?;
            Ok(rows
                .iter()
                .map(|r| Delivery {
                    user: r.get(0),
                    key: key_of(r.get(1)),
                    puzzle_id: r.get(2),
                    given_at: r.get(3),
                })
                .collect())
        })
        .await
    }

    /// Adds `rows` to the per-user history in one transaction, keeping any row already there
    /// for a user and class; how many were added (pass a page at a time).
    pub async fn add(&self, rows: &[Delivery]) -> Result<u64> {
        self.0.run(async |client| {
            let tx = client.transaction().await.map_err(self.0.failed())?;
            let mut added = 0;
            for chunk in rows.chunks(10_000) {
                let users: Vec<&str> = chunk.iter().map(|r| r.user.as_str()).collect();
                let keys: Vec<&[u8]> = chunk.iter().map(|r| &r.key.0[..]).collect();
                let ids: Vec<i64> = chunk.iter().map(|r| r.puzzle_id).collect();
                let at: Vec<&str> = chunk.iter().map(|r| r.given_at.as_str()).collect();
                added += tx
                    .execute(
                        "INSERT INTO pseudoku_user_history \
                         (user_id, canon_key, puzzle_id, given_at) \
                         SELECT * FROM UNNEST($1::text[], $2::bytea[], $3::int8[], \
                         $4::text[]::timestamptz[]) ON CONFLICT DO NOTHING",
                        &[&users, &keys, &ids, &at],
                    )
                    .await
                    .map_err(self.0.failed())?;
            }
            tx.commit().await.map_err(self.0.failed())?;
            Ok(added)
        })
        .await
    }
}
