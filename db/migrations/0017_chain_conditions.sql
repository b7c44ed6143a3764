ALTER TABLE "chain_transactions" ADD COLUMN "signed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "versions" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "block_hash" text;--> statement-breakpoint
CREATE TABLE "chain_transaction_versions" (
	"hash" text PRIMARY KEY NOT NULL,
	"transaction_id" uuid NOT NULL,
	"raw_tx" text NOT NULL,
	"max_fee_per_gas" bigint NOT NULL,
	"max_priority_fee_per_gas" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chain_transaction_versions" ADD CONSTRAINT "chain_transaction_versions_transaction_id_chain_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."chain_transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chain_transaction_versions_tx_idx" ON "chain_transaction_versions" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "chain_transactions_in_flight_idx" ON "chain_transactions" USING btree ("created_at") WHERE "chain_transactions"."status" in ('pending', 'submitted');--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"chain_id" integer NOT NULL,
	"name" text NOT NULL,
	"next_block" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_cursors_chain_id_name_pk" PRIMARY KEY("chain_id","name")
);
--> statement-breakpoint
CREATE TABLE "chain_logs" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"topic0" text NOT NULL,
	"topic1" text,
	"topics" jsonb NOT NULL,
	"data" text NOT NULL,
	CONSTRAINT "chain_logs_chain_id_block_hash_log_index_pk" PRIMARY KEY("chain_id","block_hash","log_index")
);
--> statement-breakpoint
CREATE INDEX "chain_logs_topic1_idx" ON "chain_logs" USING btree ("chain_id","address","topic1","block_number");--> statement-breakpoint
CREATE INDEX "chain_logs_block_idx" ON "chain_logs" USING btree ("chain_id","address","block_number");
