// A league.json written by `hschool-hns league --entrant burrow=builtin:burrow --entrant random=builtin:random
// --entrant idle=builtin:idle --matches 3 --seed 1` (the replays renamed to archived match ids, as the
// server names them), and the server's answers around it, for the leagues tests.
export const LEAGUE_JSON = {
  "version": 1,
  "state": "finished",
  "variant": "certification",
  "seed": 1,
  "matchesPerPairing": 3,
  "played": 9,
  "planned": 9,
  "method": {
    "name": "davidson-bradley-terry-map",
    "prior": {
      "strengthSigmaElo": 400.0,
      "tieLogMean": 0.0,
      "tieLogSigma": 2.0
    },
    "interval": "parametric-bootstrap-percentile",
    "level": 0.95,
    "resamples": 1000,
    "provisionalWidth": 200.0,
    "scale": "elo: 1500 + 400*log10(strength); the mean of the entrants is 1500",
    "tieFactor": 0.1439
  },
  "entrants": [
    {
      "name": "burrow",
      "kind": "builtin:burrow",
      "rating": 1500.0,
      "low": 1272.8,
      "high": 1727.2,
      "matches": 6,
      "wins": 3,
      "draws": 0,
      "losses": 3,
      "meanScore": -0.0597,
      "provisional": true,
      "vor": {
        "baseline": "burrow",
        "value": 0.0,
        "low": 0.0,
        "high": 0.0
      }
    },
    {
      "name": "random",
      "kind": "builtin:random",
      "rating": 1317.6,
      "low": 1103.1,
      "high": 1500.0,
      "matches": 6,
      "wins": 1,
      "draws": 0,
      "losses": 5,
      "meanScore": -0.4903,
      "provisional": true,
      "vor": {
        "baseline": "burrow",
        "value": -182.4,
        "low": -578.4,
        "high": 182.4
      }
    },
    {
      "name": "idle",
      "kind": "builtin:idle",
      "rating": 1682.4,
      "low": 1500.0,
      "high": 1896.9,
      "matches": 6,
      "wins": 5,
      "draws": 0,
      "losses": 1,
      "meanScore": 0.55,
      "provisional": true,
      "vor": {
        "baseline": "burrow",
        "value": 182.4,
        "low": -182.4,
        "high": 578.4
      }
    }
  ],
  "pairs": [
    {
      "a": "burrow",
      "b": "random",
      "matches": 3,
      "aWins": 3,
      "bWins": 0,
      "draws": 0,
      "meanMargin": 1.2213,
      "low": -0.1965,
      "high": 2.0
    },
    {
      "a": "burrow",
      "b": "idle",
      "matches": 3,
      "aWins": 0,
      "bWins": 3,
      "draws": 0,
      "meanMargin": -1.46,
      "low": -2.0,
      "high": 0.7603
    },
    {
      "a": "random",
      "b": "idle",
      "matches": 3,
      "aWins": 1,
      "bWins": 2,
      "draws": 0,
      "meanMargin": -0.74,
      "low": -2.0,
      "high": 1.6638
    }
  ],
  "results": [
    {
      "id": "0001",
      "seed": 1216681718,
      "variant": "certification",
      "seats": [
        "burrow",
        "random",
        "burrow",
        "random",
        "burrow",
        "random"
      ],
      "scores": [
        0.826,
        -0.826,
        0.826,
        -0.826,
        0.826,
        -0.826
      ],
      "replay": "m40"
    },
    {
      "id": "0002",
      "seed": 1601554128,
      "variant": "certification",
      "seats": [
        "burrow",
        "idle",
        "burrow",
        "idle",
        "burrow",
        "idle"
      ],
      "scores": [
        -0.988,
        0.988,
        -0.988,
        0.988,
        -0.988,
        0.988
      ],
      "replay": "m41"
    },
    {
      "id": "0003",
      "seed": 2085212535,
      "variant": "certification",
      "seats": [
        "random",
        "idle",
        "random",
        "idle",
        "random",
        "idle"
      ],
      "scores": [
        -0.818,
        0.818,
        -0.818,
        0.818,
        -0.818,
        0.818
      ],
      "replay": "m42"
    },
    {
      "id": "0004",
      "seed": 954254152,
      "variant": "certification",
      "seats": [
        "random",
        "burrow",
        "random",
        "burrow",
        "random",
        "burrow"
      ],
      "scores": [
        -0.719,
        0.719,
        -0.719,
        0.719,
        -0.719,
        0.719
      ],
      "replay": "m43"
    },
    {
      "id": "0005",
      "seed": 954051180,
      "variant": "certification",
      "seats": [
        "idle",
        "burrow",
        "idle",
        "burrow",
        "idle",
        "burrow"
      ],
      "scores": [
        0.988,
        -0.988,
        0.988,
        -0.988,
        0.988,
        -0.988
      ],
      "replay": "m44"
    },
    {
      "id": "0006",
      "seed": 1638303231,
      "variant": "certification",
      "seats": [
        "idle",
        "random",
        "idle",
        "random",
        "idle",
        "random"
      ],
      "scores": [
        0.435,
        -0.435,
        0.435,
        -0.435,
        0.435,
        -0.435
      ],
      "replay": "m45"
    },
    {
      "id": "0007",
      "seed": 1884091958,
      "variant": "certification",
      "seats": [
        "burrow",
        "random",
        "burrow",
        "random",
        "burrow",
        "random"
      ],
      "scores": [
        0.287,
        -0.287,
        0.287,
        -0.287,
        0.287,
        -0.287
      ],
      "replay": "m46"
    },
    {
      "id": "0008",
      "seed": 1123278215,
      "variant": "certification",
      "seats": [
        "burrow",
        "idle",
        "burrow",
        "idle",
        "burrow",
        "idle"
      ],
      "scores": [
        -0.214,
        0.214,
        -0.214,
        0.214,
        -0.214,
        0.214
      ],
      "replay": "m47"
    },
    {
      "id": "0009",
      "seed": 613125231,
      "variant": "certification",
      "seats": [
        "random",
        "idle",
        "random",
        "idle",
        "random",
        "idle"
      ],
      "scores": [
        0.143,
        -0.143,
        0.143,
        -0.143,
        0.143,
        -0.143
      ],
      "replay": "m48"
    }
  ]
};

// GET /api/hns/leagues/l1 (src/server/hns/league_routes.cpp): the summary, then "table".
export const DETAIL = {
  id: 'l1', state: 'finished', progress: { played: 9, planned: 9 }, variant: 'certification', matches: 3, seed: 1,
  entrants: [{ name: 'burrow', kind: 'builtin:burrow' }, { name: 'random', kind: 'builtin:random' }, { name: 'idle', kind: 'builtin:idle' }],
  createdAt: 1733240000000, endedAt: 1733240001000, error: null,
  table: LEAGUE_JSON,
};
