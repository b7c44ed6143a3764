import { beforeAll, describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import * as dealsRoute from "@/app/api/deals/route";
import * as ensureRoute from "@/app/api/demo/ensure-deals/route";
import * as deliverableRoute from "@/app/api/milestones/[id]/deliverable/route";
import * as milestoneRoute from "@/app/api/milestones/[id]/route";
import { fundDeal } from "../helpers/fund-deal";
import { type CallResult, call } from "../helpers/http";
import { makeUser, setRole, type TestUser } from "../helpers/users";

// Every deal and milestone endpoint, called by each kind of caller, with the exact status
// and error code of each cell. Each cell runs on a fresh deal so cells do not interact.

type Actor = "anonymous" | "otherBrand" | "otherCreator" | "brand" | "creator";
const actors: Actor[] = ["anonymous", "otherBrand", "otherCreator", "brand", "creator"];
type Expect = [status: number, code?: string];

let people: Record<Exclude<Actor, "anonymous">, TestUser>;

const dealBody = {
  title: "Spring campaign",
  description: "Two posts",
  platform: "instagram",
  minScore: 0.6,
  milestones: [
    {
      title: "Teaser",
      amount: 40.5,
      requirements: {
        hashtags: ["spring"],
        mentions: ["acme"],
        links: [],
        criteria: ["Shows the product"],
      },
    },
    { title: "Main post", amount: 59.5 },
  ],
};

async function freshDeal(opts: { taken: boolean; funded?: boolean }) {
  const created = await call(dealsRoute.POST, { body: dealBody, token: people.brand.token });
  expect(created.status).toBe(201);
  const deal = created.body.deal;
  if (opts.funded !== false) await fundDeal(people.brand, deal.id);
  if (opts.taken) {
    const accepted = await call(acceptRoute.POST, {
      params: { id: deal.id },
      token: people.creator.token,
    });
    expect(accepted.status).toBe(200);
  }
  return { dealId: deal.id as string, milestoneId: deal.milestones[0].id as string };
}

const tokenOf = (a: Actor) => (a === "anonymous" ? undefined : people[a].token);

type Endpoint = {
  name: string;
  taken: boolean;
  funded?: boolean;
  run: (ids: { dealId: string; milestoneId: string }, token?: string) => Promise<CallResult>;
  expect: Record<Actor, Expect>;
};

const endpoints: Endpoint[] = [
  {
    // Until the escrow holds the budget, only the brand knows the deal exists.
    name: "GET /api/deals/:id (unfunded deal)",
    taken: false,
    funded: false,
    run: ({ dealId }, token) => call(dealRoute.GET, { params: { id: dealId }, token }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [404, "not_found"],
      otherCreator: [404, "not_found"],
      brand: [200],
      creator: [404, "not_found"],
    },
  },
  {
    name: "POST /api/deals/:id/accept (unfunded deal)",
    taken: false,
    funded: false,
    run: ({ dealId }, token) => call(acceptRoute.POST, { params: { id: dealId }, token }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [404, "not_found"],
      otherCreator: [404, "not_found"],
      brand: [403, "forbidden"],
      creator: [404, "not_found"],
    },
  },
  {
    name: "GET /api/deals/:id (taken deal)",
    taken: true,
    run: ({ dealId }, token) => call(dealRoute.GET, { params: { id: dealId }, token }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [404, "not_found"],
      otherCreator: [404, "not_found"],
      brand: [200],
      creator: [200],
    },
  },
  {
    name: "GET /api/deals/:id (open deal)",
    taken: false,
    run: ({ dealId }, token) => call(dealRoute.GET, { params: { id: dealId }, token }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [200],
      otherCreator: [200],
      brand: [200],
      creator: [200],
    },
  },
  {
    name: "POST /api/deals/:id/accept (taken deal)",
    taken: true,
    run: ({ dealId }, token) => call(acceptRoute.POST, { params: { id: dealId }, token }),
    expect: {
      anonymous: [401, "unauthenticated"],
      // A public offer that was taken: the too-late creator learns why (see acceptDeal).
      otherBrand: [403, "wrong_role"],
      otherCreator: [409, "invalid_state"],
      brand: [403, "forbidden"],
      creator: [200],
    },
  },
  {
    name: "POST /api/deals/:id/accept (open deal)",
    taken: false,
    run: ({ dealId }, token) => call(acceptRoute.POST, { params: { id: dealId }, token }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [403, "wrong_role"],
      otherCreator: [200],
      brand: [403, "forbidden"],
      creator: [200],
    },
  },
  {
    name: "GET /api/milestones/:id",
    taken: true,
    run: ({ milestoneId }, token) =>
      call(milestoneRoute.GET, { params: { id: milestoneId }, token }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [404, "not_found"],
      otherCreator: [404, "not_found"],
      brand: [200],
      creator: [200],
    },
  },
  {
    name: "POST /api/milestones/:id/deliverable",
    taken: true,
    run: ({ milestoneId }, token) =>
      call(deliverableRoute.POST, {
        params: { id: milestoneId },
        token,
        body: { url: "https://instagram.com/p/abc", text: "#spring @acme" },
      }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [404, "not_found"],
      otherCreator: [404, "not_found"],
      brand: [403, "forbidden"],
      creator: [201],
    },
  },
  {
    name: "POST /api/milestones/:id/deliverable (open deal)",
    taken: false,
    run: ({ milestoneId }, token) =>
      call(deliverableRoute.POST, {
        params: { id: milestoneId },
        token,
        body: { url: "https://instagram.com/p/abc" },
      }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [403, "forbidden"],
      otherCreator: [403, "forbidden"],
      brand: [403, "forbidden"],
      creator: [403, "forbidden"],
    },
  },
  {
    name: "GET /api/deals",
    taken: true,
    run: (_ids, token) => call(dealsRoute.GET, { path: "/api/deals", token }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [200],
      otherCreator: [200],
      brand: [200],
      creator: [200],
    },
  },
  {
    name: "GET /api/deals?open=1",
    taken: true,
    run: (_ids, token) => call(dealsRoute.GET, { path: "/api/deals?open=1", token }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [403, "wrong_role"],
      otherCreator: [200],
      brand: [403, "wrong_role"],
      creator: [200],
    },
  },
  {
    name: "POST /api/deals",
    taken: true,
    run: (_ids, token) => call(dealsRoute.POST, { body: dealBody, token }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [201],
      otherCreator: [403, "wrong_role"],
      brand: [201],
      creator: [403, "wrong_role"],
    },
  },
  {
    name: "POST /api/demo/ensure-deals",
    taken: true,
    run: (_ids, token) => call(ensureRoute.POST, { token }),
    expect: {
      anonymous: [401, "unauthenticated"],
      otherBrand: [201],
      otherCreator: [403, "wrong_role"],
      brand: [201],
      creator: [403, "wrong_role"],
    },
  },
];

beforeAll(async () => {
  people = {
    otherBrand: await makeUser("organization"),
    otherCreator: await makeUser("creator"),
    brand: await makeUser("organization"),
    creator: await makeUser("creator"),
  };
});

describe("deal and milestone access, by caller", () => {
  for (const endpoint of endpoints) {
    for (const actor of actors) {
      const [status, code] = endpoint.expect[actor];
      it(`${endpoint.name} as ${actor} → ${status}${code ? ` ${code}` : ""}`, async () => {
        if (endpoint.name.startsWith("POST /api/demo")) {
          // ensure-deals is per brand: give each cell a brand that has never seeded.
          if (actor === "brand" || actor === "otherBrand")
            people[actor] = await makeUser("organization");
        }
        const ids = await freshDeal({ taken: endpoint.taken, funded: endpoint.funded });
        const res = await endpoint.run(ids, tokenOf(actor));
        expect(res.status, JSON.stringify(res.body)).toBe(status);
        if (code) {
          expect(res.body.error.code).toBe(code);
          expect(typeof res.body.error.message).toBe("string");
        }
      });
    }
  }
});

describe("what each party sees", () => {
  it("lists a deal only for its parties and never leaks it to others", async () => {
    const { dealId } = await freshDeal({ taken: true });
    const ids = async (t: TestUser) =>
      (await call(dealsRoute.GET, { path: "/api/deals", token: t.token })).body.deals.map(
        (d: { id: string }) => d.id,
      );
    expect(await ids(people.brand)).toContain(dealId);
    expect(await ids(people.creator)).toContain(dealId);
    expect(await ids(people.otherBrand)).not.toContain(dealId);
    expect(await ids(people.otherCreator)).not.toContain(dealId);
  });

  it("never widens access when the role is switched", async () => {
    const { dealId } = await freshDeal({ taken: true });
    const outsider = await makeUser("organization");
    await setRole(outsider, "creator");
    expect(
      (await call(dealRoute.GET, { params: { id: dealId }, token: outsider.token })).status,
    ).toBe(404);
    // The deal's own brand keeps access in the creator role, but still cannot take its deal.
    const { dealId: openId } = await freshDeal({ taken: false });
    const brand = people.brand;
    await setRole(brand, "creator");
    try {
      const res = await call(acceptRoute.POST, { params: { id: openId }, token: brand.token });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
      expect(
        (await call(dealRoute.GET, { params: { id: dealId }, token: brand.token })).status,
      ).toBe(200);
    } finally {
      await setRole(brand, "organization");
    }
  });

  it("shows an invited deal only to the invited creator", async () => {
    const invitee = await makeUser("creator");
    const res = await call(dealsRoute.POST, {
      body: { ...dealBody, creatorEmail: invitee.user.email.toUpperCase() },
      token: people.brand.token,
    });
    expect(res.status).toBe(201);
    const id = res.body.deal.id;
    await fundDeal(people.brand, id);
    expect(
      (await call(dealRoute.GET, { params: { id }, token: people.otherCreator.token })).status,
    ).toBe(404);
    expect(
      (await call(acceptRoute.POST, { params: { id }, token: people.otherCreator.token })).status,
    ).toBe(404);
    const accepted = await call(acceptRoute.POST, { params: { id }, token: invitee.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.deal.creatorId).toBe(invitee.user.id);
  });
});

describe("malformed input", () => {
  it("answers a malformed id with 400, never 404 or 500", async () => {
    for (const [handler, extra] of [
      [dealRoute.GET, {}],
      [acceptRoute.POST, {}],
      [milestoneRoute.GET, {}],
      [deliverableRoute.POST, { body: { url: "https://x.test" } }],
    ] as const) {
      const res = await call(handler, {
        params: { id: "not-a-uuid" },
        token: people.brand.token,
        ...extra,
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });

  it("validates a new deal and names each bad field", async () => {
    const res = await call(dealsRoute.POST, {
      token: people.brand.token,
      body: {
        title: "x",
        milestones: [
          {
            title: "",
            amount: 0.0000001,
            requirements: { hashtags: ["no spaces"], links: ["ftp://x"] },
          },
        ],
        creatorEmail: "nope",
      },
    });
    expect(res.status).toBe(400);
    const paths = res.body.error.details.map((d: { path: string[] }) => d.path.join("."));
    expect(paths).toEqual(
      expect.arrayContaining([
        "title",
        "creatorEmail",
        "milestones.0.title",
        "milestones.0.amount",
        "milestones.0.requirements.hashtags.0",
        "milestones.0.requirements.links.0",
      ]),
    );
  });

  it("refuses an empty milestone list and a deliverable that is not a URL", async () => {
    const empty = await call(dealsRoute.POST, {
      token: people.brand.token,
      body: { title: "Valid title", milestones: [] },
    });
    expect(empty.status).toBe(400);
    const { milestoneId } = await freshDeal({ taken: true });
    const bad = await call(deliverableRoute.POST, {
      params: { id: milestoneId },
      token: people.creator.token,
      body: { url: "javascript:alert(1)" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toEqual(["url"]);
  });
});
