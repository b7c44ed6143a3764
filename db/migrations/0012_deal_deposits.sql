CREATE TABLE "deal_deposits" (
	"deal_id" uuid PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"refund_address" text NOT NULL,
	"args" text NOT NULL,
	"received_units" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'awaiting' NOT NULL,
	"sweep_tx_id" uuid,
	"refund_tx_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_deposits_status_check" CHECK ("deal_deposits"."status" in ('awaiting', 'underpaid', 'funded', 'returned'))
);
--> statement-breakpoint
ALTER TABLE "deal_deposits" ADD CONSTRAINT "deal_deposits_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_deposits" ADD CONSTRAINT "deal_deposits_sweep_tx_id_chain_transactions_id_fk" FOREIGN KEY ("sweep_tx_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_deposits" ADD CONSTRAINT "deal_deposits_refund_tx_id_chain_transactions_id_fk" FOREIGN KEY ("refund_tx_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deal_deposits_status_updated_idx" ON "deal_deposits" USING btree ("status","updated_at");
