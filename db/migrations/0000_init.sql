CREATE TABLE "chain_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain_id" integer NOT NULL,
	"from_address" text NOT NULL,
	"nonce" integer NOT NULL,
	"to_address" text NOT NULL,
	"data" text NOT NULL,
	"value_wei" bigint DEFAULT 0 NOT NULL,
	"raw_tx" text,
	"hash" text,
	"purpose" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"block_number" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"creator_id" uuid,
	"invite_email" text,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"platform" text DEFAULT 'other' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"min_score_bps" integer DEFAULT 5000 NOT NULL,
	"budget_units" bigint NOT NULL,
	"starter_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deals_status_check" CHECK ("deals"."status" in ('open', 'active', 'completed', 'cancelled')),
	CONSTRAINT "deals_budget_check" CHECK ("deals"."budget_units" > 0),
	CONSTRAINT "deals_min_score_check" CHECK ("deals"."min_score_bps" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "deliverables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"milestone_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"url" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"submitted_by" uuid NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "faucet_drips" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"address" text NOT NULL,
	"amount_units" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"tx_hash" text,
	"chain_tx_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"route" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "milestones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deal_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"amount_units" bigint NOT NULL,
	"requirements" jsonb NOT NULL,
	"due_at" timestamp with time zone,
	"status" text DEFAULT 'pending' NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "milestones_amount_check" CHECK ("milestones"."amount_units" > 0),
	CONSTRAINT "milestones_status_check" CHECK ("milestones"."status" in ('pending', 'submitted', 'approved', 'paid', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"bucket" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limits_bucket_window_start_pk" PRIMARY KEY("bucket","window_start")
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"milestone_id" uuid NOT NULL,
	"deal_id" uuid NOT NULL,
	"via" text NOT NULL,
	"chain_id" integer NOT NULL,
	"recipient" text NOT NULL,
	"amount_units" bigint NOT NULL,
	"score_bps" integer NOT NULL,
	"revision" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"tx_hash" text,
	"chain_tx_id" uuid,
	"relay_authorization" jsonb,
	"relay_task_id" text,
	"lease_expires_at" timestamp with time zone,
	"reputation_tx_hash" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlements_amount_check" CHECK ("settlements"."amount_units" >= 0)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"email" text NOT NULL,
	"profile_type" text DEFAULT 'creator' NOT NULL,
	"wallet_address" text,
	"wallet_source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_profile_type_check" CHECK ("users"."profile_type" in ('creator', 'organization'))
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"milestone_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"approved" boolean NOT NULL,
	"score_bps" integer NOT NULL,
	"reasoning" text NOT NULL,
	"missing" jsonb NOT NULL,
	"model" text NOT NULL,
	"latency_ms" integer NOT NULL,
	"input_tokens" integer,
	"output_tokens" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verifications_score_check" CHECK ("verifications"."score_bps" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "wallet_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_brand_id_users_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliverables" ADD CONSTRAINT "deliverables_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliverables" ADD CONSTRAINT "deliverables_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faucet_drips" ADD CONSTRAINT "faucet_drips_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faucet_drips" ADD CONSTRAINT "faucet_drips_chain_tx_id_chain_transactions_id_fk" FOREIGN KEY ("chain_tx_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "milestones" ADD CONSTRAINT "milestones_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_chain_tx_id_chain_transactions_id_fk" FOREIGN KEY ("chain_tx_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_nonces" ADD CONSTRAINT "wallet_nonces_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transactions_sender_nonce_key" ON "chain_transactions" USING btree ("chain_id","from_address","nonce") WHERE "chain_transactions"."status" <> 'failed' or "chain_transactions"."block_number" is not null;--> statement-breakpoint
CREATE INDEX "chain_transactions_status_idx" ON "chain_transactions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "deals_brand_id_idx" ON "deals" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "deals_creator_id_idx" ON "deals" USING btree ("creator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deals_brand_starter_key" ON "deals" USING btree ("brand_id","starter_key");--> statement-breakpoint
CREATE UNIQUE INDEX "deliverables_milestone_revision_key" ON "deliverables" USING btree ("milestone_id","revision");--> statement-breakpoint
CREATE UNIQUE INDEX "faucet_drips_chain_address_key" ON "faucet_drips" USING btree ("chain_id",lower("address"));--> statement-breakpoint
CREATE UNIQUE INDEX "faucet_drips_chain_user_key" ON "faucet_drips" USING btree ("chain_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "milestones_deal_position_key" ON "milestones" USING btree ("deal_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_milestone_key" ON "settlements" USING btree ("milestone_id");--> statement-breakpoint
CREATE INDEX "settlements_deal_idx" ON "settlements" USING btree ("deal_id");--> statement-breakpoint
CREATE INDEX "settlements_status_idx" ON "settlements" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "users_issuer_subject_key" ON "users" USING btree ("issuer","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "users_wallet_address_key" ON "users" USING btree (lower("wallet_address"));--> statement-breakpoint
CREATE UNIQUE INDEX "verifications_milestone_revision_key" ON "verifications" USING btree ("milestone_id","revision");