// A league.json written by `hschool-hns league --entrant burrow=builtin:burrow --entrant random=builtin:random
// --entrant idle=builtin:idle --matches 3 --seed 1` at GameVersion 2 (the replays renamed to archived match ids, as the
// server names them), and the server's answers around it, for the leagues tests.
export const LEAGUE_JSON = {
  "version": 2,
  "state": "finished",
  "variant": "certification",
  "gameVersion": "2",
  "seed": 1,
  "matchesPerPairing": 3,
  "played": 9,
  "planned": 9,
  "method": {
    "name": "gaussian-margin-map",
    "model": "margin ~ Normal(delta_a - delta_b, sigma^2), delta ~ Normal(0, strengthSigma^2); wins, draws and losses are counted, not rated",
    "prior": {
      "strengthSigma": 1.0,
      "noiseScale": 0.5,
      "noiseWeight": 2.0
    },
    "interval": "gaussian-posterior",
    "level": 0.95,
    "provisionalWidth": 200.0,
    "scale": "points: 1500 + 500*delta; the mean of the entrants is 1500, 100 points is a margin of 0.2",
    "noiseSigma": 0.72,
    "clearPairsRespected": true
  },
  "entrants": [
    {
      "name": "burrow",
      "kind": "builtin:burrow",
      "rating": 1706.0,
      "low": 1519.3,
      "high": 1892.8,
      "matches": 6,
      "wins": 4,
      "draws": 0,
      "losses": 2,
      "meanScore": 0.3268,
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
      "rating": 1136.6,
      "low": 949.9,
      "high": 1323.3,
      "matches": 6,
      "wins": 0,
      "draws": 0,
      "losses": 6,
      "meanScore": -0.5765,
      "provisional": true,
      "vor": {
        "baseline": "burrow",
        "value": -569.4,
        "low": -892.9,
        "high": -246.0
      }
    },
    {
      "name": "idle",
      "kind": "builtin:idle",
      "rating": 1657.4,
      "low": 1470.6,
      "high": 1844.1,
      "matches": 6,
      "wins": 5,
      "draws": 0,
      "losses": 1,
      "meanScore": 0.2497,
      "provisional": true,
      "vor": {
        "baseline": "burrow",
        "value": -48.6,
        "low": -372.1,
        "high": 274.8
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
      "meanMargin": 1.2467,
      "low": -0.407,
      "high": 2.0
    },
    {
      "a": "burrow",
      "b": "idle",
      "matches": 3,
      "aWins": 1,
      "bWins": 2,
      "draws": 0,
      "meanMargin": 0.0607,
      "low": -2.0,
      "high": 2.0
    },
    {
      "a": "random",
      "b": "idle",
      "matches": 3,
      "aWins": 0,
      "bWins": 3,
      "draws": 0,
      "meanMargin": -1.0593,
      "low": -2.0,
      "high": 0.5772
    }
  ],
  "results": [
    {
      "id": "0001",
      "seed": 1216681718,
      "variant": "certification",
      "gameVersion": "2",
      "seats": [
        "burrow",
        "random",
        "burrow",
        "random",
        "burrow",
        "random"
      ],
      "scores": [
        0.501,
        -0.501,
        0.501,
        -0.501,
        0.501,
        -0.501
      ],
      "replay": "m40"
    },
    {
      "id": "0002",
      "seed": 1601554128,
      "variant": "certification",
      "gameVersion": "2",
      "seats": [
        "burrow",
        "idle",
        "burrow",
        "idle",
        "burrow",
        "idle"
      ],
      "scores": [
        -0.465,
        0.465,
        -0.465,
        0.465,
        -0.465,
        0.465
      ],
      "replay": "m41"
    },
    {
      "id": "0003",
      "seed": 2085212535,
      "variant": "certification",
      "gameVersion": "2",
      "seats": [
        "random",
        "idle",
        "random",
        "idle",
        "random",
        "idle"
      ],
      "scores": [
        -0.896,
        0.896,
        -0.896,
        0.896,
        -0.896,
        0.896
      ],
      "replay": "m42"
    },
    {
      "id": "0004",
      "seed": 954254152,
      "variant": "certification",
      "gameVersion": "2",
      "seats": [
        "random",
        "burrow",
        "random",
        "burrow",
        "random",
        "burrow"
      ],
      "scores": [
        -1.0,
        1.0,
        -1.0,
        1.0,
        -1.0,
        1.0
      ],
      "replay": "m43"
    },
    {
      "id": "0005",
      "seed": 954051180,
      "variant": "certification",
      "gameVersion": "2",
      "seats": [
        "idle",
        "burrow",
        "idle",
        "burrow",
        "idle",
        "burrow"
      ],
      "scores": [
        0.214,
        -0.214,
        0.214,
        -0.214,
        0.214,
        -0.214
      ],
      "replay": "m44"
    },
    {
      "id": "0006",
      "seed": 1638303231,
      "variant": "certification",
      "gameVersion": "2",
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
      "gameVersion": "2",
      "seats": [
        "burrow",
        "random",
        "burrow",
        "random",
        "burrow",
        "random"
      ],
      "scores": [
        0.369,
        -0.369,
        0.369,
        -0.369,
        0.369,
        -0.369
      ],
      "replay": "m46"
    },
    {
      "id": "0008",
      "seed": 1123278215,
      "variant": "certification",
      "gameVersion": "2",
      "seats": [
        "burrow",
        "idle",
        "burrow",
        "idle",
        "burrow",
        "idle"
      ],
      "scores": [
        0.77,
        -0.77,
        0.77,
        -0.77,
        0.77,
        -0.77
      ],
      "replay": "m47"
    },
    {
      "id": "0009",
      "seed": 613125231,
      "variant": "certification",
      "gameVersion": "2",
      "seats": [
        "random",
        "idle",
        "random",
        "idle",
        "random",
        "idle"
      ],
      "scores": [
        -0.258,
        0.258,
        -0.258,
        0.258,
        -0.258,
        0.258
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
