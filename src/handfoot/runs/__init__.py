"""Many games at once: playing games between bots, simulation statistics, duplicate
tournaments, running a run's games on processes or a cluster, tuning styles and training
the learned bot (docs/tournaments.md, docs/cluster.md)."""
