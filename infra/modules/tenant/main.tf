# One hindsight stack per tenant: a bucket for the LanceDB tables, two queues, five functions from one image.
# Data flows gateway/recall/reflect/compact -> store queue (FIFO, one message group) -> store, the only writer of
# tables/ and cold/; reflect queue -> reflect; schedules -> reflect / compact. Resources are split by concern:
# storage.tf, queues.tf, functions.tf, iam.tf, schedules.tf, monitoring.tf.

data "aws_caller_identity" "current" {}
data "aws_region" "current" {}
data "aws_partition" "current" {}

locals {
  name        = "hindsight-${var.tenant_id}"
  account_id  = data.aws_caller_identity.current.account_id
  region      = data.aws_region.current.name
  partition   = data.aws_partition.current.partition
  bucket_name = coalesce(var.bucket_name, "${local.name}-${local.account_id}")
  tags        = merge(var.tags, { "hindsight:tenant" = var.tenant_id })

  # Object prefixes inside the tenant bucket.
  tables_prefix  = "tables/"
  cold_prefix    = "cold/"
  exports_prefix = "exports/"

  # Every function runs the same image; image_config.command picks the handler.
  functions = {
    gateway = { command = "functions.gateway.handler.handler", description = "MCP/REST gateway behind the function URL" }
    store   = { command = "functions.store.handler.handler", description = "Single writer: drains the store queue into LanceDB" }
    recall  = { command = "functions.recall.handler.handler", description = "Recall (read path)" }
    reflect = { command = "functions.reflect.handler.handler", description = "Reflection: drains the reflect queue, runs the LLM" }
    compact = { command = "functions.compact.handler.handler", description = "Scheduled compaction: decides, the store function applies" }
  }

  function_names = { for k, _ in local.functions : k => "${local.name}-${k}" }

  # Names and ARNs built from known values, not read from the resources: the IAM policies are then fully known
  # at plan time (the IAM conformance test renders them from a plan) and need no resource to exist first.
  queue_names = {
    store         = "${local.name}-store.fifo"
    reflect       = "${local.name}-reflect"
    store-dlq     = "${local.name}-store-dlq.fifo"
    reflect-dlq   = "${local.name}-reflect-dlq"
    schedules-dlq = "${local.name}-schedules-dlq"
  }
  bucket_arn     = "arn:${local.partition}:s3:::${local.bucket_name}"
  queue_arns     = { for k, n in local.queue_names : k => "arn:${local.partition}:sqs:${local.region}:${local.account_id}:${n}" }
  function_arns  = { for k, n in local.function_names : k => "arn:${local.partition}:lambda:${local.region}:${local.account_id}:function:${n}" }
  log_group_arns = { for k, n in local.function_names : k => "arn:${local.partition}:logs:${local.region}:${local.account_id}:log-group:/aws/lambda/${n}" }
  secret_name    = "hindsight/${var.tenant_id}/config"
  # Secrets Manager appends 6 random characters to a secret's ARN: match them, as AWS advises for policies.
  secret_arn_pattern = "arn:${local.partition}:secretsmanager:${local.region}:${local.account_id}:secret:${local.secret_name}-??????"

  # Every function's environment: the settings known before anything is created, then the resources' own
  # addresses; functions.tf adds each function's timeout, then var.extra_env on top.
  static_environment = merge(
    {
      HINDSIGHT_TENANT        = var.tenant_id
      HINDSIGHT_STORE_URI     = "s3://${local.bucket_name}/${trimsuffix(local.tables_prefix, "/")}"
      HINDSIGHT_COLD_URI      = "s3://${local.bucket_name}/${trimsuffix(local.cold_prefix, "/")}"
      HINDSIGHT_EXPORT_URI    = "s3://${local.bucket_name}/${trimsuffix(local.exports_prefix, "/")}"
      HINDSIGHT_S3_REGION     = local.region
      HINDSIGHT_QUEUE         = "sqs"
      HINDSIGHT_LLM_MODEL     = var.llm_model
      HINDSIGHT_EMBEDDER      = var.embedder
      HINDSIGHT_ALLOWED_HOSTS = var.allowed_hosts
      # litellm otherwise downloads its price list at import time.
      LITELLM_LOCAL_MODEL_COST_MAP = "True"
    },
    var.s3_endpoint == null ? {} : { HINDSIGHT_S3_ENDPOINT = var.s3_endpoint },
  )

  environment = merge(local.static_environment, {
    HINDSIGHT_STORE_QUEUE_URL   = aws_sqs_queue.this["store"].url
    HINDSIGHT_STORE_DLQ_URL     = aws_sqs_queue.dlq["store"].url
    HINDSIGHT_REFLECT_QUEUE_URL = aws_sqs_queue.this["reflect"].url
    HINDSIGHT_SECRET_ARN        = aws_secretsmanager_secret.this.arn
  })

  # The function's own timeout bounds what a request may wait for (wait=true, gateway compaction).
  function_settings = {
    for k, _ in local.functions :
    k => merge(local.static_environment, { HINDSIGHT_FUNCTION_TIMEOUT_S = tostring(var.timeout_s[k]) }, var.extra_env)
  }
}
