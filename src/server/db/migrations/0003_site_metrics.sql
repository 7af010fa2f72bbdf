CREATE TABLE "site_metrics" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "site_metrics_day_kind_name_detail_pk" PRIMARY KEY("day","kind","name","detail"),
	CONSTRAINT "site_metrics_kind_check" CHECK ("site_metrics"."kind" in ('page_view','event'))
);
