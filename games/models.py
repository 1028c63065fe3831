# Groups, players, rule sets, sessions, deals and ledger entries arrive here.
