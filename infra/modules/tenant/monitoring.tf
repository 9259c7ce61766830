# Alarms: a message in a DLQ (a write, a reflection or a scheduled run given up), any function error or throttle,
# and a store queue whose oldest message waits too long (the single writer falls behind or is stuck).

locals {
  alarm_actions = var.alarm_sns_topic_arn == null ? [] : [var.alarm_sns_topic_arn]

  dead_letter_queues = {
    store     = aws_sqs_queue.dlq["store"].name
    reflect   = aws_sqs_queue.dlq["reflect"].name
    schedules = aws_sqs_queue.schedules_dlq.name
  }

  # (function, metric) pairs: Errors counts failed invocations (a handler exception, a timeout, out of memory);
  # Throttles should stay 0 (the writer's queue is FIFO with one group, the others run unreserved).
  function_alarms = {
    for pair in setproduct(keys(local.functions), ["Errors", "Throttles"]) :
    "${pair[0]}-${lower(pair[1])}" => { function = pair[0], metric = pair[1] }
  }
}

resource "aws_cloudwatch_metric_alarm" "dlq" {
  for_each = local.dead_letter_queues

  alarm_name          = "${local.name}-${each.key}-dlq-not-empty"
  alarm_description   = "hindsight ${var.tenant_id}: messages in the ${each.key} dead-letter queue"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = each.value }
  statistic           = "Maximum"
  period              = 300
  evaluation_periods  = 1
  threshold           = 0
  comparison_operator = "GreaterThanThreshold"
  treat_missing_data  = "notBreaching"
  alarm_actions       = local.alarm_actions
  ok_actions          = local.alarm_actions
  tags                = local.tags
}

resource "aws_cloudwatch_metric_alarm" "function" {
  for_each = local.function_alarms

  alarm_name          = "${local.name}-${each.key}"
  alarm_description   = "hindsight ${var.tenant_id}: ${each.value.function} function ${lower(each.value.metric)}"
  namespace           = "AWS/Lambda"
  metric_name         = each.value.metric
  dimensions          = { FunctionName = local.function_names[each.value.function] }
  statistic           = "Sum"
  period              = 300
  evaluation_periods  = 1
  threshold           = 0
  comparison_operator = "GreaterThanThreshold"
  treat_missing_data  = "notBreaching"
  alarm_actions       = local.alarm_actions
  ok_actions          = local.alarm_actions
  tags                = local.tags
}

resource "aws_cloudwatch_metric_alarm" "store_queue_age" {
  alarm_name          = "${local.name}-store-queue-age"
  alarm_description   = "hindsight ${var.tenant_id}: the oldest write waits more than ${var.store_queue_age_alarm_s} s"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateAgeOfOldestMessage"
  dimensions          = { QueueName = aws_sqs_queue.this["store"].name }
  statistic           = "Maximum"
  period              = 60
  evaluation_periods  = 5
  threshold           = var.store_queue_age_alarm_s
  comparison_operator = "GreaterThanThreshold"
  treat_missing_data  = "notBreaching"
  alarm_actions       = local.alarm_actions
  ok_actions          = local.alarm_actions
  tags                = local.tags
}
