# One hindsight stack per tenant: a bucket for the LanceDB tables, two queues, five functions from one image.
# Data flows gateway/recall -> store queue -> store (the only writer of tables/), reflect queue -> reflect,
# schedules -> reflect / compact. Resources are split by concern: storage.tf, queues.tf, functions.tf,
# iam.tf, schedules.tf, monitoring.tf.

data "aws_caller_identity" "current" {}
data "aws_region" "current" {}

locals {
  name        = "hindsight-${var.tenant_id}"
  account_id  = data.aws_caller_identity.current.account_id
  bucket_name = coalesce(var.bucket_name, "${local.name}-${local.account_id}")
  tags        = merge(var.tags, { "hindsight:tenant" = var.tenant_id })

  # Object prefixes inside the tenant bucket.
  tables_prefix = "tables/"
  cold_prefix   = "cold/"

  # Every function runs the same image; image_config.command picks the handler.
  functions = {
    gateway = { command = "functions.gateway.handler.handler", description = "MCP/REST gateway behind the function URL" }
    store   = { command = "functions.store.handler.handler", description = "Single writer: drains the store queue into LanceDB" }
    recall  = { command = "functions.recall.handler.handler", description = "Recall (read path)" }
    reflect = { command = "functions.reflect.handler.handler", description = "Reflection: drains the reflect queue, runs the LLM" }
    compact = { command = "functions.compact.handler.handler", description = "Scheduled compaction and cold-tier moves" }
  }

  function_names = { for k, _ in local.functions : k => "${local.name}-${k}" }

  environment = merge(
    {
      HINDSIGHT_TENANT            = var.tenant_id
      HINDSIGHT_STORE_URI         = "s3://${aws_s3_bucket.this.id}/${trimsuffix(local.tables_prefix, "/")}"
      HINDSIGHT_COLD_URI          = "s3://${aws_s3_bucket.this.id}/${trimsuffix(local.cold_prefix, "/")}"
      HINDSIGHT_S3_REGION         = data.aws_region.current.name
      HINDSIGHT_QUEUE             = "sqs"
      HINDSIGHT_STORE_QUEUE_URL   = aws_sqs_queue.this["store"].url
      HINDSIGHT_REFLECT_QUEUE_URL = aws_sqs_queue.this["reflect"].url
      HINDSIGHT_SECRET_ARN        = aws_secretsmanager_secret.this.arn
      HINDSIGHT_LLM_MODEL         = var.llm_model
      HINDSIGHT_EMBEDDER          = var.embedder
      HINDSIGHT_ALLOWED_HOSTS     = var.allowed_hosts
      # litellm otherwise downloads its price list at import time.
      LITELLM_LOCAL_MODEL_COST_MAP = "True"
    },
    var.s3_endpoint == null ? {} : { HINDSIGHT_S3_ENDPOINT = var.s3_endpoint },
    var.extra_env,
  )
}
