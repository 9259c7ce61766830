# store: the single-writer queue (all writes go through it); reflect: reflection requests.
# Each has a DLQ that the monitoring alarms watch.

locals {
  queue_consumers = toset(["store", "reflect"])

  # AWS advice for SQS-triggered functions: visibility >= 6 x function timeout (+ batching window),
  # so that a batch still in flight is not handed out again.
  visibility_timeout_s = {
    for q in local.queue_consumers :
    q => min(43200, 6 * var.timeout_s[q] + var.maximum_batching_window_s)
  }
}

resource "aws_sqs_queue" "dlq" {
  for_each = local.queue_consumers

  name                      = "${local.name}-${each.key}-dlq"
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
  tags                      = local.tags
}

resource "aws_sqs_queue" "this" {
  for_each = local.queue_consumers

  name                       = "${local.name}-${each.key}"
  visibility_timeout_seconds = local.visibility_timeout_s[each.key]
  message_retention_seconds  = var.message_retention_s
  receive_wait_time_seconds  = 20
  sqs_managed_sse_enabled    = true
  tags                       = local.tags

  # Owned by aws_sqs_queue_redrive_policy.this below, which checks it for drift itself.
  lifecycle {
    ignore_changes = [redrive_policy]
  }
}

# A resource of its own rather than the queue's redrive_policy argument: it compares the policy as JSON (no
# drift when an API re-serialises it), and the queue and its DLQ are created in parallel.
resource "aws_sqs_queue_redrive_policy" "this" {
  for_each = local.queue_consumers

  queue_url = aws_sqs_queue.this[each.key].id
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq[each.key].arn
    maxReceiveCount     = var.max_receive_count
  })
}
