# A message in a DLQ means a write or a reflection was given up: alarm on any.

resource "aws_cloudwatch_metric_alarm" "dlq" {
  for_each = local.queue_consumers

  alarm_name          = "${local.name}-${each.key}-dlq-not-empty"
  alarm_description   = "hindsight ${var.tenant_id}: messages in the ${each.key} dead-letter queue"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.dlq[each.key].name }
  statistic           = "Maximum"
  period              = 300
  evaluation_periods  = 1
  threshold           = 0
  comparison_operator = "GreaterThanThreshold"
  treat_missing_data  = "notBreaching"
  alarm_actions       = var.alarm_sns_topic_arn == null ? [] : [var.alarm_sns_topic_arn]
  ok_actions          = var.alarm_sns_topic_arn == null ? [] : [var.alarm_sns_topic_arn]
  tags                = local.tags
}
