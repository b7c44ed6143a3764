// The API quickstart on /docs: the same shell blocks as README.md's "API quickstart", which
// test/docs/quickstart.test.ts runs as written and compares with these.

export const QUICKSTART_BLOCKS: readonly { title: string; script: string }[] = [
  {
    title: "Create an API key",
    script:
      'export MILESTONE_URL=http://localhost:3000\n\n# 1. An API key (in the app: Settings → API keys). From a shell, on embedded defaults, the dev\n#    identity provider signs you in as a brand, and the session makes the key.\nID_TOKEN=$(curl -sf -X POST "$MILESTONE_URL/api/dev/id-token" -H "Content-Type: application/json" \\\n  -d \'{"email":"quickstart-brand@example.com"}\' | jq -r .idToken)\nSESSION=$(curl -sf -X POST "$MILESTONE_URL/api/auth/session" -H "Content-Type: application/json" \\\n  -d "{\\"idToken\\":\\"$ID_TOKEN\\",\\"profileType\\":\\"organization\\"}" | jq -r .token)\nexport MILESTONE_API_KEY=$(curl -sf -X POST "$MILESTONE_URL/api/keys" \\\n  -H "Authorization: Bearer $SESSION" -H "Content-Type: application/json" \\\n  -d \'{"name":"quickstart","scopes":["read","write","settle"]}\' | jq -r .key)\n',
  },
  {
    title: "Receive webhooks (a second terminal)",
    script:
      '# 2. Webhooks, in a second terminal (export the two variables there too): your account\'s\n#    events, forwarded to a receiver on your machine and signed with the secret this prints.\n#    No public URL, nothing to configure on the server.\nnpm run listen -- --forward-to http://localhost:4242/hook --api-key "$MILESTONE_API_KEY" --api-url "$MILESTONE_URL"\n',
  },
  {
    title: "Create and fund a deal",
    script:
      '# 3. A deal with one milestone of 25 USDC.\nDEAL_ID=$(curl -sf -X POST "$MILESTONE_URL/api/deals" -H "Authorization: Bearer $MILESTONE_API_KEY" \\\n  -H "Content-Type: application/json" \\\n  -d \'{"title":"Spring launch","platform":"instagram","milestones":[{"title":"Launch Reel","amount":25}]}\' \\\n  | jq -r .deal.id)\n\n# 4. Fund it without a wallet: the deal\'s deposit address takes USDC from anywhere; anything\n#    beyond the deal\'s total goes back to the refund address (yours).\nDEPOSIT=$(curl -sf -X POST "$MILESTONE_URL/api/deals/$DEAL_ID/funding/deposit" \\\n  -H "Authorization: Bearer $MILESTONE_API_KEY" -H "Content-Type: application/json" \\\n  -d \'{"refundAddress":"0x5B38Da6a701c568545dCfcB03FcB875f56beddC4"}\' | jq -r .deposit.address)\n#    On the embedded chain the test faucet sends 1,000 test USDC there (on a testnet: send the\n#    25 USDC from any wallet).\ncurl -sf -X POST "$MILESTONE_URL/api/faucet/test-usdc" -H "Authorization: Bearer $MILESTONE_API_KEY" \\\n  -H "Content-Type: application/json" -d "{\\"address\\":\\"$DEPOSIT\\"}" > /dev/null\n#    Tell the service it is there (or let reconcile find it): the deposit is swept into the\n#    escrow and the deal opens for creators.\ncurl -sf -X POST "$MILESTONE_URL/api/deals/$DEAL_ID/funding" -H "Authorization: Bearer $MILESTONE_API_KEY" \\\n  -H "Content-Type: application/json" -d \'{}\' | jq -r .deal.status\n# → open; the listener forwards created, deposit.received and funded to your receiver.\n',
  },
];
