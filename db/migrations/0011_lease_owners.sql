ALTER TABLE "milestones" ADD COLUMN "verify_lease_owner" uuid;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "lease_owner" uuid;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "claim_id" uuid DEFAULT gen_random_uuid() NOT NULL;
