-- Deleting devices is its own permission key, auth_device_delete (issue 30 item 16), no longer
-- part of auth_device_edit. Every role that could delete devices before (it held
-- auth_device_edit) keeps that right: it is granted the new key. Roles made afterwards get it
-- only when it is ticked.
INSERT INTO role_permission (role_id, perm_key)
SELECT role_id, 'auth_device_delete' FROM role_permission WHERE perm_key = 'auth_device_edit';
